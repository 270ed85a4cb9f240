export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The process is alive
         * @description Anonymous, for load balancers: answers while the process runs, whatever the database does.
         */
        get: operations["checkLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Started (database migrated, first-start setup done) and the database answers
         * @description Anonymous, for orchestrators: 503 while starting, while shutting down, or while the database does not answer.
         */
        get: operations["checkReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in with email and password
         * @description Anonymous; limited per client address and throttled per email. Answers an access token and a refresh token. When several organizations share the email, `organizationSlug` chooses. A page on another site may not make a browser send it (403).
         */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Trade a refresh token for a new pair (rotation)
         * @description Anonymous; limited per client address. The refresh token is used up: presenting it again revokes its whole session (but within 30 s, from the same client address, while its successor is unused: a renewal whose answer was lost; docs/api/access.md "Tokens"). A page on another site may not make a browser send it (403).
         */
        post: operations["refreshSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/accept-invite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a password with an invitation token; answers tokens
         * @description Anonymous; limited per client address. Confirms the invited member, sets the password (at least 12 characters) and starts a session. A page on another site may not make a browser send it (403).
         */
        post: operations["acceptInvite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask for a link to choose a new password
         * @description Anonymous; limited per client address. Always 202, whether or not the email is known: each confirmed member with it gets an email with a link to PUBLIC_BASE_URL/reset-password, valid for an hour, usable once. Nobody chooses where the link leads: `appUrl`, which this route once took, is an unknown property like any other (400). A page on another site may not make a browser send it (403).
         */
        post: operations["requestPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/reset-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a new password with the token of a reset link; answers tokens
         * @description Anonymous; limited per client address. The token works once and for an hour; the member's other sessions end, and a new one starts. A page on another site may not make a browser send it (403).
         */
        post: operations["resetPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End the session of a refresh token
         * @description Every role. Revokes the session of the given refresh token when it is the caller's; answers 204 either way.
         */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in; the refresh token is set as a cookie
         * @description Anonymous; limited per client address and throttled per email, as /api/auth/login. Answers the access token; the refresh token is set in the httpOnly cookie `intake_refresh` (SameSite=Strict, Path=/api/auth/session). Sent as application/json only: a form posted from another site cannot set that type, and a script of another site cannot without this service allowing it (no CORS). A page on another site may not make a browser send it (403).
         */
        post: operations["startBrowserSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/session/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Trade the session cookie for a new access token (rotation)
         * @description Anonymous; limited per client address. Reads the refresh token from the cookie `intake_refresh`, uses it up and sets its successor. 401 when there is none or it is no longer valid. Sent as application/json only: a form posted from another site cannot set that type, and a script of another site cannot without this service allowing it (no CORS). A page on another site may not make a browser send it (403).
         */
        post: operations["refreshBrowserSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/session/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End the session of the cookie and clear it
         * @description Every role. Revokes the session of the refresh token in the cookie `intake_refresh` when it is the caller's, and clears the cookie; 204 either way. Sent as application/json only: a form posted from another site cannot set that type, and a script of another site cannot without this service allowing it (no CORS).
         */
        post: operations["endBrowserSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/needs/public": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Anonymous need intake
         * @description No credentials: a web form or a partner's site names the organization by `organizationId` or `organizationSlug`. Limited per client address; routed by keywords when no partner is given. The answer tells nothing of who else is on file. A page on another site may make a browser send it only from an origin in the organization's `formOrigins`, else 403.
         */
        post: operations["submitPublicNeed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/needs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List and search needs, newest first; paging in X-Total-Count and Link
         * @description Every role; partner roles see their own partner's needs only. Filters by status list, partner, assignee and constituent, and open needs by due date: `overdue=true` (past due now) and `dueBefore`, which list soonest due first unless `sort` is given; by when needs were created or resolved (`createdFrom`, `createdTo`, `resolvedFrom`, `resolvedTo`: from included, to excluded). `q` finds needs by word prefixes of the reference number, the description and the person's name, each only where the caller may read it (a confidential need's description with needs:read-confidential, names with the right to read constituents); with `q`, the total is counted up to 1,000 (or to the end of the page asked for): past it X-Total-Count-Is-Lower-Bound says more match, and Link has no last.
         */
        get: operations["listNeeds"];
        put?: never;
        /**
         * Create a need
         * @description Caseworker roles and intake_staff; partner roles for their own partner only. Contact keys in `customFields` register a constituent, checked for duplicates (`possibleDuplicates` in the answer).
         */
        post: operations["createNeed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/needs/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import needs from a CSV file of the export's columns and description; a dry run answers what it would do
         * @description org_admin. Each row is recorded as an intake by staff is, on its original date (createdAt, required), for the partner partnerId names by id or name (the default partner when empty). A row with the same original time and customFields as a need on file, or as an earlier row, is skipped, so importing a file twice creates nothing new.
         */
        post: operations["importNeeds"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/needs/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set the status, assignee or partner of up to 100 needs at once; a result per need
         * @description Who may `PUT /api/needs/{id}`. Each need is changed as that route would change it alone (its own transaction, checks, audit event and history); one refused stops none of the others. Each result has the status the single update would have answered and, unless 200, its problem: a need the caller may not see is 404. More than 100 ids, an id twice or an empty `set` is 400 and changes nothing.
         */
        post: operations["bulkUpdateNeeds"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/needs/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export needs as a CSV file, newest first, with the list filters
         * @description org_admin, or a role holding pii_reader; partner roles export their own partner's needs only. Every need the list would show, streamed; redacted as the list.
         */
        get: operations["exportNeeds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/needs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a need by id or reference number
         * @description Every role, within its visibility (partner roles: their own partner's needs); `customFields` of a confidential need only with the permission.
         */
        get: operations["getNeed"];
        /**
         * Update status or metadata
         * @description Caseworker roles and needs_processor. Takes the UUID or the reference number. Any status may move to any other but RESOLVED, which may only reopen to IN_PROGRESS (409 otherwise); every change is kept in the history. `dueDate` sets the due date by hand, null returns it to the partner's SLA.
         */
        put: operations["updateNeed"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/needs/{id}/notes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add an internal note
         * @description Every role that sees the need; takes the UUID or the reference number.
         */
        post: operations["addNote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/needs/{id}/sms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Text the need's constituent; queued, sent by the outbox
         * @description org_admin or sms_communicator. Answers 202 with the interaction; the worker sends it. 429 with Retry-After past the texts one member may send, or one number may be sent, within an hour.
         */
        post: operations["sendSms"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/needs/{id}/interactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Notes and messages of a need, oldest first; paging in X-Total-Count and Link
         * @description Every role that sees the need; the content of a confidential need's interactions only with the permission. Paged.
         */
        get: operations["listInteractions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/needs/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every recorded change of a need, oldest first: status, assignee, partner, confidentiality, due date
         * @description Every role that sees the need, as `GET /api/needs/{id}`; takes the UUID or the reference number. Each change: field, from, to, who, when. Paged.
         */
        get: operations["listNeedHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Texts on no need, newest first; paging (and the count) in X-Total-Count and Link
         * @description org_admin or sms_communicator. `from` only to those who may read phone numbers.
         */
        get: operations["listMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/messages/{id}/attach": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Put the text, and every other text on no need from its number, on a need
         * @description org_admin or sms_communicator, on a need they see. The texts take the need's partner and person.
         */
        post: operations["attachMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/messages/{id}/need": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a need from the text, with every text on no need from its number on it
         * @description Members who may send texts and create needs (partner roles for their own partner). The person is the one on file with the number, or one made from it. Answers the need as POST /api/needs answers a created one.
         */
        post: operations["startNeedFromMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/messages/{id}/reply": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Text back the number a text on no need came from; queued, sent by the outbox
         * @description org_admin or sms_communicator. The limits and opt-outs of POST /api/needs/{id}/sms; the reply goes on the need the texts of that number are later put on.
         */
        post: operations["replyToMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/partners": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the partners of the organization, archived ones included
         * @description Every role. Newest first, paged.
         */
        get: operations["listPartners"];
        put?: never;
        /**
         * Add a partner
         * @description org_admin.
         */
        post: operations["createPartner"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/partners/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Update a partner
         * @description org_admin; a partner_admin its own partner's details, not `isDefault` nor `isArchived`.
         */
        put: operations["updatePartner"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/services": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the organization's services, newest first
         * @description Every role, every partner's services. Archived ones only with includeArchived=true. Paged.
         */
        get: operations["listServices"];
        put?: never;
        /**
         * Add a service
         * @description org_admin; a partner_admin for its own partner.
         */
        post: operations["createService"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/services/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a service
         * @description Every role.
         */
        get: operations["getService"];
        /**
         * Update or archive a service
         * @description org_admin; a partner_admin its own partner's services, which it cannot hand to another partner. A service is archived (isArchived), never deleted.
         */
        put: operations["updateService"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/taxonomy-terms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Find imported taxonomy terms, by vocabulary then code
         * @description Every role: the terms a service may name.
         */
        get: operations["listTaxonomyTerms"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/taxonomy-terms/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import a vocabulary's terms from a CSV file of code, name and description; a dry run answers what it would do
         * @description org_admin. Each row needs a code and a name; a code the vocabulary has already, or an earlier row has, is skipped (its name kept). No vocabulary is shipped: import Open Eligibility, or a 211 taxonomy the organization holds a licence for.
         */
        post: operations["importTaxonomyTerms"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hsds/{organizationSlug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the directory is: its HSDS version and profile
         * @description Anonymous. 404 unless the organization publishes its directory (publishDirectory). Cached: ETag and Cache-Control, 304 to an If-None-Match of the ETag. A slug the organization left is 308 to the same address under its slug now.
         */
        get: operations["getHsdsAbout"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hsds/{organizationSlug}/services": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The published services, newest first, in HSDS pages; the filters narrow each other
         * @description Anonymous. 404 unless the organization publishes its directory (publishDirectory). Cached: ETag and Cache-Control, 304 to an If-None-Match of the ETag. A slug the organization left is 308 to the same address under its slug now.
         */
        get: operations["listHsdsServices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hsds/{organizationSlug}/services/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A published service, every nested record with it
         * @description Anonymous. 404 unless the organization publishes its directory (publishDirectory). Cached: ETag and Cache-Control, 304 to an If-None-Match of the ETag. A slug the organization left is 308 to the same address under its slug now.
         */
        get: operations["getHsdsService"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hsds/{organizationSlug}/organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The directory's one organization, in an HSDS page
         * @description Anonymous. 404 unless the organization publishes its directory (publishDirectory). Cached: ETag and Cache-Control, 304 to an If-None-Match of the ETag. A slug the organization left is 308 to the same address under its slug now.
         */
        get: operations["listHsdsOrganizations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hsds/{organizationSlug}/organizations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The organization, with its locations (its partners) and its services
         * @description Anonymous. 404 unless the organization publishes its directory (publishDirectory). Cached: ETag and Cache-Control, 304 to an If-None-Match of the ETag. A slug the organization left is 308 to the same address under its slug now.
         */
        get: operations["getHsdsOrganization"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hsds/{organizationSlug}/service_at_locations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Each published service at its partner's location, in HSDS pages
         * @description Anonymous. 404 unless the organization publishes its directory (publishDirectory). Cached: ETag and Cache-Control, 304 to an If-None-Match of the ETag. A slug the organization left is 308 to the same address under its slug now.
         */
        get: operations["listHsdsServicesAtLocations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hsds/{organizationSlug}/service_at_locations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A service at its location, the service whole
         * @description Anonymous. 404 unless the organization publishes its directory (publishDirectory). Cached: ETag and Cache-Control, 304 to an If-None-Match of the ETag. A slug the organization left is 308 to the same address under its slug now.
         */
        get: operations["getHsdsServiceAtLocation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/constituents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search constituents by name prefix, phone digits or email; newest first
         * @description Caseworker roles and intake_staff. Searching by phone or email needs the permission to read them; fields come back redacted by role. Paged. With a query, the total is counted up to 1,000 (or to the end of the page asked for): past it X-Total-Count-Is-Lower-Bound says more match, and Link has no last. Without a query it is exact.
         */
        get: operations["searchConstituents"];
        put?: never;
        /**
         * Register a constituent; the answer names who it may be already
         * @description Caseworker roles and intake_staff. Checked for duplicates: the answer carries `possibleDuplicates` and `duplicateWarning` when someone alike is on file by a detail the caller may read (the others are not matched on for the answer), and opens household matches on every detail.
         */
        post: operations["createConstituent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/constituents/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export constituents as a CSV file, newest first, matched as the search matches
         * @description org_admin, or a caseworker role (or intake_staff) holding pii_reader. Every constituent the search would find, streamed; phone, email, address and date of birth redacted as the search does, their columns then empty.
         */
        get: operations["exportConstituents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/constituents/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import constituents from a CSV file of the export's columns; a dry run answers what it would do
         * @description org_admin. Each row is checked as a creation is; a row that is someone on file (same phone, same email, or same name and date of birth) or an earlier row is skipped, so importing a file twice creates nothing new. Created in batches, each committed on its own; duplicate detection runs as on every creation.
         */
        post: operations["importConstituents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/constituents/merge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Merge the source constituent into the target
         * @description org_admin or duplicate_resolver. The source's needs move to the target, the source is removed. An erased constituent on either side is 409.
         */
        post: operations["mergeConstituents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/constituents/{id}/erase": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Erase a person's details everywhere the service keeps them; their needs stay, linked to the emptied record
         * @description org_admin. Names, phone, email, address and date of birth are removed from the record, its search terms, the household matches naming it, its needs' contact keys, its texts and the outbox's messages to it; the answer is the emptied record with `erasedAt`. Erasing again changes nothing. Out of its reach: earlier backups, and what webhook receivers and message providers got before.
         */
        post: operations["eraseConstituent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/constituents/duplicate-check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Who a person with these details may be already, before registering them; stores nothing
         * @description Caseworker roles and intake_staff. The candidates a creation with these details would name, by name, each with what they share. Only the details the caller may read are matched on (phone and email with `constituents:read-contact`, date of birth and street with `constituents:read-pii`): a phone, email, date of birth or street it may not read is ignored, so the answer is the same whether or not it is on file. Each candidate shown is a read in the audit trail, as after a creation. A POST so that the details stay out of addresses and logs.
         */
        post: operations["checkConstituentDuplicates"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/constituents/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a constituent; phone, email, address and date of birth as the caller may read them
         * @description Caseworker roles and intake_staff; tenant-scoped (another organization's id is 404). Redacted exactly as search results.
         */
        get: operations["getConstituent"];
        /**
         * Update constituent details (checked for duplicates again)
         * @description Caseworker roles and intake_staff. Fields left out stay, `null` clears; a change of a matched field runs duplicate detection again.
         */
        put: operations["updateConstituent"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/constituents/{id}/needs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A constituent's needs, newest first; other partners' details are emptied for partner roles
         * @description Caseworker roles and intake_staff. Paged.
         */
        get: operations["listConstituentNeeds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/constituents/{id}/household": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The people of a constituent's household, the constituent among them (the first 100)
         * @description Caseworker roles and intake_staff. Each redacted exactly as search results.
         */
        get: operations["getConstituentHousehold"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/household-matches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Possible duplicates, newest first, with both people's names and the reasons
         * @description org_admin or duplicate_resolver. Each match carries both people, redacted as the caller may read them, and its reasons. Paged.
         */
        get: operations["listHouseholdMatches"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/household-matches/{id}/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Merge the constituents, join the household, or dismiss
         * @description org_admin or duplicate_resolver. A match is decided once; a second decision is 409.
         */
        post: operations["resolveHouseholdMatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List members, newest first (a partner_admin sees its partner's)
         * @description org_admin, staff and partner_admin. Paged.
         */
        get: operations["listMembers"];
        put?: never;
        /**
         * Add a member and email a one-time invitation (valid 7 days)
         * @description org_admin; a partner_admin for the agents and volunteers of its own partner. An email already in the organization is 409.
         */
        post: operations["inviteMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/members/{id}/invitation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a new invitation to a member who has not accepted one (an addition)
         * @description Who may invite the member. 409 once the member can log in.
         */
        post: operations["resendInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/members/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change a member's name, email, role, partner, phone or profiles, or restore a deactivated member's access
         * @description Who may invite the member; profiles only those the caller may grant. Demoting or deactivating the last active org_admin is 409. `active: true` restores access with the same password. A new `email` is mailed a one-time link (24 hours) and the member's old address a notice; `email` changes once the link is followed, and until then the answer names it as `pendingEmail`. An email another member of the organization has is 409, as is a new email for a deactivated member.
         */
        put: operations["updateMember"];
        post?: never;
        /**
         * Deactivate a member: every session and token of theirs ends at once
         * @description Who may invite the member. They stay listed (active: false), their name stays on history, notes and the audit trail, and needs assigned to them stay assigned. Their unused invitation and reset links are void. Deactivating oneself or the last active org_admin is 409; deactivating a deactivated member changes nothing.
         */
        delete: operations["deactivateMember"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/profile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller’s own profile
         * @description Every role: the member the access token names.
         */
        get: operations["getProfile"];
        /**
         * Update the caller’s own name and phone
         * @description Every role; `phone: null` clears the phone.
         */
        put: operations["updateProfile"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/profile/email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change the caller’s own email: a link mailed to the new address confirms it
         * @description Every role. The link works once, for 24 hours; the old address is told of the change. The email changes when the link is followed (the `/confirm-email` page); a later request voids the earlier link. The address another member of the organization has is 409; the current one is 400 at /email. Sessions go on. Counted against the auth rate limit, as login is, and at most 5 asked within an hour (429 past it).
         */
        post: operations["changeEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/profile/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Choose a new password, proving the current one; every session of the member ends
         * @description Every role. A wrong current password is 400 at /currentPassword. Every session of the member ends, this one too: log in again with the new password. Counted against the auth rate limit, as login is.
         */
        post: operations["changePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/profile/views": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller’s saved views of the inbox, oldest first
         * @description Every role; only the caller’s own views, which no one else sees. Paged; a member keeps at most 50, so `limit=50` reads them all.
         */
        get: operations["listSavedViews"];
        put?: never;
        /**
         * Save the inbox’s filters under a name
         * @description Every role; only the caller’s own views, which no one else sees. A name the caller has given another view, or a 51st view, is 409.
         */
        post: operations["createSavedView"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/profile/views/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Rename a saved view, or replace its filters
         * @description Every role; only the caller’s own views, which no one else sees. `filters` replaces the old ones whole; a name another of the caller's views has is 409. Another member's view is 404.
         */
        put: operations["updateSavedView"];
        post?: never;
        /**
         * Delete a saved view
         * @description Every role; only the caller’s own views, which no one else sees. Another member's view is 404.
         */
        delete: operations["deleteSavedView"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Organization settings
         * @description org_admin.
         */
        get: operations["getOrganizationSettings"];
        /**
         * Update organization settings; a slug or short code of another organization is 409
         * @description org_admin. The short code changes the prefix of new reference numbers only.
         */
        put: operations["updateOrganizationSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/settings/email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Email settings, the key masked; 404 while mail goes to the fallback
         * @description org_admin. The key is never answered: only its last four characters.
         */
        get: operations["getEmailSettings"];
        /**
         * Set the email provider; the key is stored encrypted and never returned
         * @description org_admin. SMTP hosts may be restricted by the deployment.
         */
        put: operations["updateEmailSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/settings/email/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send one real message with the proposed settings; nothing is stored
         * @description org_admin. 502 with the provider's reason, secrets removed, when the provider refuses.
         */
        post: operations["testEmailSettings"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/quick-replies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The organization's saved replies to texts, in English and Spanish
         * @description Whoever may send texts (org_admin, sms_communicator).
         */
        get: operations["getQuickReplies"];
        /**
         * Replace the saved replies
         * @description org_admin. At most 50, labels unique, each with an English or Spanish text (or both).
         */
        put: operations["updateQuickReplies"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organizations/outbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What would have been sent with no provider set, newest first
         * @description org_admin. The mail of an organization without email settings and the texts while SMS_PROVIDER=log, kept 7 days and erased with the person they were to. Paged.
         */
        get: operations["listDevelopmentOutbox"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/audit-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The organization's audit trail, newest first
         * @description org_admin. Every write and every read of a constituent’s personal details, filtered by member, record, action and time. Paged.
         */
        get: operations["listAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/reports/needs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Needs opened and resolved in a period, open and overdue now, per status, partner and week
         * @description org_admin and staff; partner_admin and partner_agent see their own partner's figures only. Read from counts kept per partner and day, not from the needs themselves.
         */
        get: operations["getNeedsReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/reports/served": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The people and households with a need resolved in a period, each counted once, in all and per partner
         * @description Who may read the needs report; partner roles count their own partner's needs only. The period's days are the organization's (its timeZone).
         */
        get: operations["getServedReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/reports/served/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The people and households served in a period, as CSV
         * @description The same figures and permission as getServedReport, as a file: columns from, to, timeZone, partnerId, partnerName, people, households.
         */
        get: operations["exportServedReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/twilio/sms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Inbound text (Twilio); STOP/START keywords change the opt-out
         * @description Called by Twilio, checked against `X-Twilio-Signature` (403 otherwise); answers empty TwiML.
         */
        post: operations["receiveSms"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/twilio/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Delivery status callback (Twilio)
         * @description Called by Twilio, checked against `X-Twilio-Signature` (403 otherwise); moves an outbound text to delivered or failed.
         */
        post: operations["recordSmsStatus"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the organization's webhook endpoints
         * @description org_admin. Newest first, paged; secrets are never shown again.
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Add a webhook endpoint; its signing secret is answered this once
         * @description org_admin.
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhook-endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a webhook endpoint (without its secret)
         * @description org_admin.
         */
        get: operations["getWebhookEndpoint"];
        /**
         * Change a webhook endpoint; `enabled: true` re-enables it
         * @description org_admin. A partial update.
         */
        put: operations["updateWebhookEndpoint"];
        post?: never;
        /**
         * Remove a webhook endpoint; what still waits for it is not sent
         * @description org_admin.
         */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhook-endpoints/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an endpoint's deliveries
         * @description org_admin. Newest first, paged: status, tries, the endpoint's last HTTP status.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The organization's events as they happen, as server-sent events
         * @description Any member. Only what the member may read (as `GET /api/needs` and the constituents' reads). Ends when the access token expires (reconnect with a fresh one), at logout, when the session is revoked and when the member is deactivated.
         */
        get: operations["streamEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/referral-partners": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the organization's active pairings
         * @description org_admin. Oldest first.
         */
        get: operations["listReferralPartners"];
        put?: never;
        /**
         * Redeem another organization's pairing code
         * @description org_admin. Its instance is asked over HTTP, even when it is this one; 502 when it cannot be reached.
         */
        post: operations["pairWithPartner"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/referral-partners/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a pairing code for another organization
         * @description org_admin. Redeemed once, within 24 hours, by the other organization's admin (POST /api/referral-partners).
         */
        post: operations["createPairingInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/referral-partners/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * End a pairing, on both sides
         * @description org_admin.
         */
        delete: operations["endPairing"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/referral-partners/{id}/services": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a referral partner's services that take referrals
         * @description Who may send referrals. Asked of the partner's instance at once; 502 when it cannot be reached.
         */
        get: operations["listPartnerServices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/needs/{id}/referrals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Refer the need to a partner organization
         * @description The sender's members who may update the need. With the person's consent; only the consented contact fields that hold a value, and the note, travel.
         */
        post: operations["sendReferral"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/referrals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List referrals sent and received, newest first
         * @description Every role; partner roles their partner's. Paged.
         */
        get: operations["listReferrals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/referrals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a referral
         * @description Every role; partner roles their partner’s.
         */
        get: operations["getReferral"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/referrals/{id}/decline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Decline a referral received (rejected)
         * @description The receiver's members who may update needs of the referral's partner.
         */
        post: operations["declineReferral"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/referrals/{id}/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Complete a referral, with its outcome
         * @description The receiver's members who may update needs of the referral's partner.
         */
        post: operations["completeReferral"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/referrals/{id}/revoke-consent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke the person's consent
         * @description The sender's members who may update the need. At any time: the receiver erases the values it took from the referral.
         */
        post: operations["revokeReferralConsent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/referrals/{id}/send-again": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a referral that was not delivered again
         * @description Its side: the sender its request, the receiver its last move.
         */
        post: operations["sendReferralAgain"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/referrals/{id}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept a referral received
         * @description The receiver's members who may update needs of the referral's partner.
         */
        post: operations["acceptReferral"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/referrals/{id}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start work on an accepted referral (in-progress)
         * @description The receiver's members who may update needs of the referral's partner.
         */
        post: operations["startReferral"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/referrals/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a referral sent, before it is completed
         * @description The sender's members who may update the need.
         */
        post: operations["cancelReferral"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/federation/v1/pairings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Redeem a pairing code made on this instance
         * @description Anonymous: called by a referral partner's instance; limited per client address. The code's secret is used up; this side answers its key, which must match the code's fingerprint.
         */
        post: operations["acceptPairing"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/federation/v1/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Take a signed message from a partner's instance
         * @description Anonymous: called by a referral partner's instance; limited per client address. Signed with Standard Webhooks' asymmetric scheme (`v1a`, Ed25519); more than 5 minutes old is 401; an id seen already is answered 200 and changes nothing. A request's answer is its body.
         */
        post: operations["receiveFederationMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AttachMessage: {
            /**
             * Format: uuid
             * @description The need the texts go on
             */
            needId: string;
        };
        /** @description One write, or one read of a constituent’s personal details */
        AuditEvent: {
            /** Format: uuid */
            id: string;
            /**
             * Format: uuid
             * @description Who did it; absent when nobody logged in did (public intake, a provider, an operator)
             */
            memberId?: string;
            /** @enum {string} */
            action: "create" | "update" | "delete" | "read" | "merge" | "erase" | "resolve" | "add_note" | "send_sms" | "receive_sms" | "sms_status" | "invite" | "accept_invite" | "set_password" | "request_password_reset" | "reset_password" | "change_password" | "request_email_change" | "change_email" | "login" | "logout" | "deactivate" | "reactivate" | "import" | "apply_retention" | "revoke_session";
            /** @enum {string} */
            recordType: "organization" | "member" | "partner" | "service" | "need" | "constituent" | "household_match" | "email_settings" | "interaction" | "webhook_endpoint" | "referral_partner" | "referral";
            /** Format: uuid */
            recordId: string;
            /** Format: date-time */
            at: string;
            /** @description The request's X-Request-Id */
            requestId?: string;
            /** @description Names of the fields changed or read, never their values */
            fields?: string[];
            /** @description How many records it touched, by kind: a retention run (`apply_retention`) counts the people it erased and the needs whose text it cleared */
            counts?: {
                /** Format: int32 */
                constituentsErased?: number;
                /** Format: int32 */
                needTextsCleared?: number;
                /** Format: int32 */
                rows?: number;
                /** Format: int32 */
                created?: number;
                /** Format: int32 */
                skipped?: number;
                /** Format: int32 */
                refused?: number;
            };
        };
        BrowserSession: {
            accessToken: string;
            /** @constant */
            tokenType: "Bearer";
            /**
             * Format: int32
             * @description Seconds until the access token expires
             */
            expiresIn: number;
        };
        BulkNeedUpdate: {
            /** @description The needs to change, each once */
            ids: string[];
            /** @description What to set on each need, as `PUT /api/needs/{id}` takes it */
            set: {
                /** @enum {string} */
                status?: "NEW" | "IN_PROGRESS" | "PENDING_INTERNAL" | "PENDING_CLIENT" | "RESOLVED" | "ESCALATED";
                /**
                 * Format: uuid
                 * @description A member of the organization; null unassigns the needs
                 */
                assignedTo?: string | null;
                /** Format: uuid */
                partnerId?: string;
            };
        };
        /** @description What came of each need */
        BulkNeedUpdateResults: {
            /** @description One result per id, in the request's order */
            results: {
                /** @description The id or reference number as the request gave it */
                id: string;
                /**
                 * Format: int32
                 * @description The status `PUT /api/needs/{id}` would have answered for this need alone: 200, or its problem's
                 */
                status: number;
                problem?: components["schemas"]["ValidationProblem"];
            }[];
        };
        /** @description A person served; phone, email, address and date of birth appear only with the permission to read them */
        Constituent: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            householdId: string;
            firstName?: string;
            lastName?: string;
            /** @description Kept and answered in E.164 (+15035550142); given in international form or as a national number of the organization's defaultCountry */
            phone?: string;
            email?: string;
            /**
             * Format: date
             * @description YYYY-MM-DD, a real date
             */
            dateOfBirth?: string;
            addressStreet?: string;
            addressCity?: string;
            /** @description Two-letter US state or territory code */
            addressState?: string;
            /** @description Five-digit ZIP code */
            addressZip?: string;
            /**
             * Format: date-time
             * @description When the person's details were erased; the record then holds none of them
             */
            erasedAt?: string;
        };
        /** @description A constituent, and when texts to its number stopped */
        ConstituentDetail: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            householdId: string;
            firstName?: string;
            lastName?: string;
            /** @description Kept and answered in E.164 (+15035550142); given in international form or as a national number of the organization's defaultCountry */
            phone?: string;
            email?: string;
            /**
             * Format: date
             * @description YYYY-MM-DD, a real date
             */
            dateOfBirth?: string;
            addressStreet?: string;
            addressCity?: string;
            /** @description Two-letter US state or territory code */
            addressState?: string;
            /** @description Five-digit ZIP code */
            addressZip?: string;
            /**
             * Format: date-time
             * @description When the person's details were erased; the record then holds none of them
             */
            erasedAt?: string;
            /**
             * Format: date-time
             * @description When the person's number opted out of the organization's texts (STOP, ALTO…); absent while it may be texted
             */
            textsStoppedAt?: string;
        };
        ConstituentMerge: {
            /** Format: uuid */
            sourceConstituentId: string;
            /** Format: uuid */
            targetConstituentId: string;
            mergeHouseholds?: boolean;
            /** @description Values the merged constituent takes; null clears a field */
            fieldOverrides?: {
                firstName?: string;
                lastName?: string;
                /** @description Kept and answered in E.164 (+15035550142); given in international form or as a national number of the organization's defaultCountry */
                phone?: string | null;
                email?: string | null;
                /**
                 * Format: date
                 * @description YYYY-MM-DD, a real date
                 */
                dateOfBirth?: string | null;
                addressStreet?: string | null;
                addressCity?: string | null;
                /** @description Two-letter US state or territory code */
                addressState?: string | null;
                /** @description Five-digit ZIP code */
                addressZip?: string | null;
            };
        };
        /** @description Fields to change; null clears a field */
        ConstituentUpdate: {
            firstName?: string | null;
            lastName?: string | null;
            /** @description Kept and answered in E.164 (+15035550142); given in international form or as a national number of the organization's defaultCountry */
            phone?: string | null;
            email?: string | null;
            /**
             * Format: date
             * @description YYYY-MM-DD, a real date
             */
            dateOfBirth?: string | null;
            addressStreet?: string | null;
            addressCity?: string | null;
            /** @description Two-letter US state or territory code */
            addressState?: string | null;
            /** @description Five-digit ZIP code */
            addressZip?: string | null;
        };
        /** @description The new constituent, and who it may be already */
        CreatedConstituent: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            householdId: string;
            firstName?: string;
            lastName?: string;
            /** @description Kept and answered in E.164 (+15035550142); given in international form or as a national number of the organization's defaultCountry */
            phone?: string;
            email?: string;
            /**
             * Format: date
             * @description YYYY-MM-DD, a real date
             */
            dateOfBirth?: string;
            addressStreet?: string;
            addressCity?: string;
            /** @description Two-letter US state or territory code */
            addressState?: string;
            /** @description Five-digit ZIP code */
            addressZip?: string;
            /**
             * Format: date-time
             * @description When the person's details were erased; the record then holds none of them
             */
            erasedAt?: string;
            possibleDuplicates?: components["schemas"]["PossibleDuplicates"];
            /** @description The possible duplicates shown, as one sentence with their count and reasons; present whenever there are some */
            duplicateWarning?: string;
        };
        /** @description The new need; when its contact keys made a constituent who may be on file already, who and why */
        CreatedNeed: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organizationId: string;
            /** Format: uuid */
            partnerId: string;
            /** @enum {string} */
            status: "NEW" | "IN_PROGRESS" | "PENDING_INTERNAL" | "PENDING_CLIENT" | "RESOLVED" | "ESCALATED";
            /** @description Free key-value intake fields; at most 50 keys and 16 KiB as JSON. Contact keys are validated as constituent fields. */
            customFields: {
                [key: string]: unknown | unknown;
            };
            isConfidential: boolean;
            /** Format: uuid */
            parentNeedId?: string;
            /** Format: uuid */
            assignedTo?: string;
            /** Format: uuid */
            createdBy?: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /**
             * Format: date-time
             * @description When the need is due: set by hand, or creation plus the partner's slaHours
             */
            dueDate?: string;
            /** @description Whether dueDate was set by hand (kept when the need moves) rather than the partner's SLA */
            dueDateSetByHand: boolean;
            /**
             * Format: date-time
             * @description When the need was resolved; absent while it is open
             */
            resolvedAt?: string;
            /** Format: uuid */
            constituentId?: string;
            /** Format: uuid */
            householdId?: string;
            /** @description Who the constituent this need registered may be already, as one sentence: whole to whoever may read every matched detail; to others, without count, the reasons they may read, and absent when they may read none */
            duplicateWarning?: string;
            /** @description Human-readable reference such as FOOD-1001 */
            referenceNumber: string;
            /** @description true: the person texted after all their needs were resolved and no member has answered since (a text, a note or a change clears it); the status is unchanged */
            needsAttention: boolean;
            possibleDuplicates?: components["schemas"]["PossibleDuplicates"];
        };
        /** @description The new endpoint with its signing secret */
        CreatedWebhookEndpoint: {
            /** Format: uuid */
            id: string;
            url: string;
            events: ("need.created" | "need.updated" | "note.added" | "constituent.created" | "constituent.merged" | "constituent.erased" | "household_match.resolved" | "sms.received" | "sms.status" | "message.attached" | "referral.received" | "referral.status_changed")[];
            /** @description False when disabled by hand or after repeated failure (see disabledAt) */
            enabled: boolean;
            /**
             * Format: int32
             * @description Deliveries failed for good in a row
             */
            consecutiveFailures: number;
            /**
             * Format: date-time
             * @description When repeated failure disabled the endpoint
             */
            disabledAt?: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description The signing secret, `whsec_` and base64: shown this once only */
            secret: string;
        };
        DuplicateCheck: {
            /** @description Who the person may be already, by name, each with what they share, matched on the details the caller may read only (a detail it may not read is not matched on: the answer is the same whether or not it is on file); empty when none */
            possibleDuplicates: {
                /** Format: uuid */
                constituentId: string;
                firstName?: string;
                lastName?: string;
                reasons: ("same phone" | "same email" | "same name and date of birth" | "same last name and address")[];
            }[];
            /** @description The possible duplicates shown, as one sentence with their count and reasons; present whenever there are some */
            duplicateWarning?: string;
        };
        /** @description The details of a person about to be registered: those duplicate detection compares */
        DuplicateCheckDetails: {
            firstName?: string;
            lastName?: string;
            /** @description Kept and answered in E.164 (+15035550142); given in international form or as a national number of the organization's defaultCountry */
            phone?: string;
            email?: string;
            /**
             * Format: date
             * @description YYYY-MM-DD, a real date
             */
            dateOfBirth?: string;
            addressStreet?: string;
            addressCity?: string;
            /** @description Two-letter US state or territory code */
            addressState?: string;
            /** @description Five-digit ZIP code */
            addressZip?: string;
        };
        EmailChange: {
            /** @enum {string} */
            status: "confirmation_sent" | "changed";
            email: string;
        };
        EmailChangeRequest: {
            /** @description The new address: a one-time link (valid 24 hours) is mailed to it, and the email changes once it is followed */
            email: string;
        };
        EmailSettings: {
            /** @enum {string} */
            provider: "smtp" | "postmark" | "ses" | "sendgrid";
            fromEmail: string;
            fromName?: string;
            apiKeyLast4: string;
            /** Format: date-time */
            updatedAt: string;
        };
        EmailSettingsUpdate: {
            /** @enum {string} */
            provider: "smtp" | "postmark" | "ses" | "sendgrid";
            /** @description Secret: smtp://user:password@host:587 for smtp, ACCESS_KEY_ID:SECRET_ACCESS_KEY:REGION for ses, the provider's API key for the others. Left out: the key stored for the same provider (400 when none is) */
            apiKey?: string;
            fromEmail: string;
            fromName?: string;
        };
        /** @description One offending field */
        FieldError: {
            /** @description A JSON pointer into the body (/customFields/phone), or query/… and params/… */
            path: string;
            /** @description What the field must be */
            message: string;
        };
        /** @description A possible duplicate, with both people as the caller may read them and why they may be one person */
        HouseholdMatch: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organizationId: string;
            /** Format: uuid */
            constituentId: string;
            /** Format: uuid */
            candidateConstituentId: string;
            /** @description The constituent found to resemble the candidate; absent once merged into another */
            constituent?: {
                /** Format: uuid */
                id: string;
                /** Format: uuid */
                householdId: string;
                firstName?: string;
                lastName?: string;
                /** @description Kept and answered in E.164 (+15035550142); given in international form or as a national number of the organization's defaultCountry */
                phone?: string;
                email?: string;
                /**
                 * Format: date
                 * @description YYYY-MM-DD, a real date
                 */
                dateOfBirth?: string;
                addressStreet?: string;
                addressCity?: string;
                /** @description Two-letter US state or territory code */
                addressState?: string;
                /** @description Five-digit ZIP code */
                addressZip?: string;
                /**
                 * Format: date-time
                 * @description When the person's details were erased; the record then holds none of them
                 */
                erasedAt?: string;
            };
            /** @description The constituent it resembles; absent once merged into another */
            candidate?: {
                /** Format: uuid */
                id: string;
                /** Format: uuid */
                householdId: string;
                firstName?: string;
                lastName?: string;
                /** @description Kept and answered in E.164 (+15035550142); given in international form or as a national number of the organization's defaultCountry */
                phone?: string;
                email?: string;
                /**
                 * Format: date
                 * @description YYYY-MM-DD, a real date
                 */
                dateOfBirth?: string;
                addressStreet?: string;
                addressCity?: string;
                /** @description Two-letter US state or territory code */
                addressState?: string;
                /** @description Five-digit ZIP code */
                addressZip?: string;
                /**
                 * Format: date-time
                 * @description When the person's details were erased; the record then holds none of them
                 */
                erasedAt?: string;
            };
            /** @description The reasons as one text, e.g. "same phone, same email" */
            reason: string;
            /** @description Why the two may be one person */
            reasons: ("same phone" | "same email" | "same name and date of birth" | "same last name and address")[];
            /** @enum {string} */
            status: "OPEN" | "RESOLVED" | "DISMISSED";
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            resolvedAt?: string;
            /** Format: uuid */
            resolvedBy?: string;
            /** @enum {string} */
            action?: "MERGE_CONSTITUENT" | "MERGE_HOUSEHOLD" | "DISMISS";
        };
        HouseholdMatchResolution: {
            /** @enum {string} */
            action: "MERGE_CONSTITUENT" | "MERGE_HOUSEHOLD" | "DISMISS";
            /** Format: uuid */
            targetConstituentId?: string;
            /** @description Values the merged constituent takes; null clears a field */
            fieldOverrides?: {
                firstName?: string;
                lastName?: string;
                /** @description Kept and answered in E.164 (+15035550142); given in international form or as a national number of the organization's defaultCountry */
                phone?: string | null;
                email?: string | null;
                /**
                 * Format: date
                 * @description YYYY-MM-DD, a real date
                 */
                dateOfBirth?: string | null;
                addressStreet?: string | null;
                addressCity?: string | null;
                /** @description Two-letter US state or territory code */
                addressState?: string | null;
                /** @description Five-digit ZIP code */
                addressZip?: string | null;
            };
        };
        HsdsAbout: {
            /** @constant */
            version: "3.0";
            /**
             * Format: uri
             * @description The HSDS profile the directory follows: HSDS's own
             */
            profile: string;
            /**
             * Format: uri
             * @description HSDS 3.0's API reference, which these routes follow
             */
            openapi_url: string;
        };
        /** @description An HSDS 3.0 organization record (HSDS's organization.json) */
        HsdsOrganization: {
            [key: string]: unknown;
        };
        HsdsOrganizationPage: {
            /**
             * Format: int32
             * @description Records that match, on every page
             */
            total_items: number;
            /**
             * Format: int32
             * @description Pages of them; 0 when none matches
             */
            total_pages: number;
            /**
             * Format: int32
             * @description This page, from 1
             */
            page_number: number;
            /**
             * Format: int32
             * @description Records on this page
             */
            size: number;
            first_page: boolean;
            last_page: boolean;
            /** @description No record on this page */
            empty: boolean;
            contents: components["schemas"]["HsdsOrganization"][];
        };
        /** @description An HSDS 3.0 service record (HSDS's service.json) */
        HsdsService: {
            [key: string]: unknown;
        };
        /** @description An HSDS 3.0 service_at_location record (HSDS's service_at_location.json) */
        HsdsServiceAtLocation: {
            [key: string]: unknown;
        };
        HsdsServiceAtLocationPage: {
            /**
             * Format: int32
             * @description Records that match, on every page
             */
            total_items: number;
            /**
             * Format: int32
             * @description Pages of them; 0 when none matches
             */
            total_pages: number;
            /**
             * Format: int32
             * @description This page, from 1
             */
            page_number: number;
            /**
             * Format: int32
             * @description Records on this page
             */
            size: number;
            first_page: boolean;
            last_page: boolean;
            /** @description No record on this page */
            empty: boolean;
            contents: components["schemas"]["HsdsServiceAtLocation"][];
        };
        HsdsServicePage: {
            /**
             * Format: int32
             * @description Records that match, on every page
             */
            total_items: number;
            /**
             * Format: int32
             * @description Pages of them; 0 when none matches
             */
            total_pages: number;
            /**
             * Format: int32
             * @description This page, from 1
             */
            page_number: number;
            /**
             * Format: int32
             * @description Records on this page
             */
            size: number;
            first_page: boolean;
            last_page: boolean;
            /** @description No record on this page */
            empty: boolean;
            contents: components["schemas"]["HsdsService"][];
        };
        ImportReport: {
            /** @description Whether this was a dry run, which stored nothing */
            dryRun: boolean;
            /**
             * Format: int32
             * @description Rows read after the header, blank lines aside
             */
            rows: number;
            /**
             * Format: int32
             * @description Rows created (on a dry run: that an import would create)
             */
            created: number;
            /**
             * Format: int32
             * @description Rows that are a record already on file, or an earlier row of the file
             */
            skipped: number;
            /** @description The refused rows' errors, the first 1000; a refused row is not created */
            errors: {
                /**
                 * Format: int32
                 * @description The row: 1 is the first after the header
                 */
                row: number;
                /** @description The column at fault (a key of customFields after a slash); empty for the whole row */
                field: string;
                /** @description What the value must be, in the words of the API */
                message: string;
            }[];
            /** @description How the header was read */
            columns: {
                /** @description The header's names of columns the import reads, in the file's order */
                matched: {
                    /** @description The header's name, as the file gives it */
                    header: string;
                    /** @description The column it names, by its own name or a common one: firstName, lastName, phone, email, dateOfBirth, addressStreet, addressCity, addressState, addressZip, partnerId, partnerName, status, description, isConfidential, customFields, customFields.description, customFields.firstName, customFields.lastName, customFields.phone, customFields.email, customFields.dateOfBirth, customFields.addressStreet, customFields.addressCity, customFields.addressState, customFields.addressZip, createdAt, resolvedAt */
                    column: string;
                }[];
                /** @description The header's names of no column the import reads nor of the export's it passes over, the first 100: their cells are not read */
                unknown: string[];
            };
        };
        /** @description A note or message on a need */
        Interaction: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organizationId: string;
            /** Format: uuid */
            partnerId?: string;
            /** Format: uuid */
            needId?: string;
            /** @enum {string} */
            channel: "sms" | "email" | "note";
            /** @description A note's author, the organization's number, or the number an inbound text came from; that number only to those who may read the person's phone (left out otherwise) */
            senderIdentifier?: string;
            content?: string;
            /** @enum {string} */
            deliveryStatus?: "queued" | "sent" | "delivered" | "failed";
            /** @description The SMS provider's message id */
            providerMessageId?: string;
            /** @description A failed SMS: why it was not delivered, in words (the provider’s reason) */
            deliveryError?: string;
            /** @description Outbound SMS a member sent: who; absent for texts from the person and the service’s own */
            sentBy?: {
                /** Format: uuid */
                id: string;
                /** @description Their full name, or their email when they gave none */
                fullName: string;
            };
            /** @description A reply sent while the texts were on no need: the number it went to; only to those who may read the person's phone */
            recipient?: string;
            /** Format: date-time */
            createdAt: string;
        };
        InvitationAcceptance: {
            token: string;
            /** @description At least 12 characters */
            password: string;
        };
        InvitationResend: {
            /** @description Base URL of the app the invitation link opens (its /accept-invite page): on PUBLIC_BASE_URL's origin or one of the organization's appOrigins, with no user or password, backslash, query or fragment, else 400 at /appUrl. PUBLIC_BASE_URL by default */
            appUrl?: string;
        };
        Member: {
            /** Format: uuid */
            id: string;
            email: string;
            fullName?: string;
            /** @enum {string} */
            role: "org_admin" | "partner_admin" | "partner_agent" | "staff" | "volunteer";
            /** Format: uuid */
            partnerId?: string;
            partnerName?: string;
            profiles?: ("needs_processor" | "intake_staff" | "sms_communicator" | "email_phone_communicator" | "pii_reader" | "duplicate_resolver")[];
            isConfirmed: boolean;
            /** @description false once deactivated: the member can neither log in nor act */
            active: boolean;
            phone?: string;
            /** @description Only in the answer of a change that gave a new email: the address a confirmation link was sent to. `email` becomes it once the link is followed */
            pendingEmail?: string;
            /**
             * Format: date-time
             * @description When a session of the member last began (a login, an accepted invitation or a password reset); absent until one has
             */
            lastLoginAt?: string;
        };
        MemberUpdate: {
            fullName?: string;
            /** @description The new address: a one-time link (valid 24 hours) is mailed to it, and the email changes once it is followed */
            email?: string;
            /** @enum {string} */
            role?: "org_admin" | "partner_admin" | "partner_agent" | "staff" | "volunteer";
            /** Format: uuid */
            partnerId?: string;
            /** @description Kept and answered in E.164; given in international form or as a national number of the organization's defaultCountry */
            phone?: string | null;
            profiles?: ("needs_processor" | "intake_staff" | "sms_communicator" | "email_phone_communicator" | "pii_reader" | "duplicate_resolver")[];
            /** @description true restores a deactivated member's access, with the same password; false deactivates, as DELETE does */
            active?: boolean;
        };
        /** @description A text that came in and is on no need yet */
        Message: {
            /** Format: uuid */
            id: string;
            /** @description What the person wrote */
            body: string;
            /** Format: date-time */
            receivedAt: string;
            /** @description The number it came from; only to those who may read people's phone numbers (left out otherwise) */
            from?: string;
        };
        MessageReply: {
            /** @description The message text */
            body: string;
        };
        /** @description A request for assistance */
        Need: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organizationId: string;
            /** Format: uuid */
            partnerId: string;
            /** @enum {string} */
            status: "NEW" | "IN_PROGRESS" | "PENDING_INTERNAL" | "PENDING_CLIENT" | "RESOLVED" | "ESCALATED";
            /** @description Free key-value intake fields; at most 50 keys and 16 KiB as JSON. Contact keys are validated as constituent fields. */
            customFields: {
                [key: string]: unknown | unknown;
            };
            isConfidential: boolean;
            /** Format: uuid */
            parentNeedId?: string;
            /** Format: uuid */
            assignedTo?: string;
            /** Format: uuid */
            createdBy?: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /**
             * Format: date-time
             * @description When the need is due: set by hand, or creation plus the partner's slaHours
             */
            dueDate?: string;
            /** @description Whether dueDate was set by hand (kept when the need moves) rather than the partner's SLA */
            dueDateSetByHand: boolean;
            /**
             * Format: date-time
             * @description When the need was resolved; absent while it is open
             */
            resolvedAt?: string;
            /** Format: uuid */
            constituentId?: string;
            /** Format: uuid */
            householdId?: string;
            /** @description Who the constituent this need registered may be already, as one sentence: whole to whoever may read every matched detail; to others, without count, the reasons they may read, and absent when they may read none */
            duplicateWarning?: string;
            /** @description Human-readable reference such as FOOD-1001 */
            referenceNumber: string;
            /** @description true: the person texted after all their needs were resolved and no member has answered since (a text, a note or a change clears it); the status is unchanged */
            needsAttention: boolean;
        };
        /** @description One recorded change of a need: who changed which field from what to what, and when */
        NeedChange: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            field: "status" | "assignedTo" | "partnerId" | "isConfidential" | "dueDate";
            /** @description The value before; absent when the field had none (creation, a first assignment) */
            from?: string;
            /** @description The value after; absent when the field was cleared */
            to?: string;
            /** Format: uuid */
            changedBy?: string;
            /** Format: date-time */
            changedAt: string;
        };
        /** @description A need, and whether its person may be texted */
        NeedDetail: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organizationId: string;
            /** Format: uuid */
            partnerId: string;
            /** @enum {string} */
            status: "NEW" | "IN_PROGRESS" | "PENDING_INTERNAL" | "PENDING_CLIENT" | "RESOLVED" | "ESCALATED";
            /** @description Free key-value intake fields; at most 50 keys and 16 KiB as JSON. Contact keys are validated as constituent fields. */
            customFields: {
                [key: string]: unknown | unknown;
            };
            isConfidential: boolean;
            /** Format: uuid */
            parentNeedId?: string;
            /** Format: uuid */
            assignedTo?: string;
            /** Format: uuid */
            createdBy?: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /**
             * Format: date-time
             * @description When the need is due: set by hand, or creation plus the partner's slaHours
             */
            dueDate?: string;
            /** @description Whether dueDate was set by hand (kept when the need moves) rather than the partner's SLA */
            dueDateSetByHand: boolean;
            /**
             * Format: date-time
             * @description When the need was resolved; absent while it is open
             */
            resolvedAt?: string;
            /** Format: uuid */
            constituentId?: string;
            /** Format: uuid */
            householdId?: string;
            /** @description Who the constituent this need registered may be already, as one sentence: whole to whoever may read every matched detail; to others, without count, the reasons they may read, and absent when they may read none */
            duplicateWarning?: string;
            /** @description Human-readable reference such as FOOD-1001 */
            referenceNumber: string;
            /** @description true: the person texted after all their needs were resolved and no member has answered since (a text, a note or a change clears it); the status is unchanged */
            needsAttention: boolean;
            /** @description Whether staff may text the need's person now (POST /api/needs/{id}/sms) */
            canText: boolean;
            /** @enum {string} */
            cannotTextReason?: "no-phone" | "opted-out" | "provider-log" | "no-sms-number" | "limit-reached";
            /**
             * Format: date-time
             * @description When the person's number opted out of the organization's texts (STOP, ALTO…); absent while it may be texted
             */
            textsStoppedAt?: string;
        };
        /** @description The needs of a period and as of now, in all and per partner and week */
        NeedsReport: {
            /** @description The first day of the period */
            from: string;
            /** @description The last day of the period */
            to: string;
            /**
             * Format: date-time
             * @description The first instant of the period's first day
             */
            since: string;
            /**
             * Format: date-time
             * @description The first instant after the period's last day
             */
            until: string;
            /**
             * Format: int32
             * @description Needs created during the period
             */
            opened: number;
            /**
             * Format: int32
             * @description Needs resolved during the period and still resolved
             */
            resolved: number;
            /**
             * Format: int32
             * @description Needs not RESOLVED now, whenever they were opened
             */
            open: number;
            /**
             * Format: int32
             * @description Needs open and past their dueDate now
             */
            overdue: number;
            /** @description Needs in each status now */
            byStatus: {
                /**
                 * Format: int32
                 * @description Needs in NEW now
                 */
                NEW: number;
                /**
                 * Format: int32
                 * @description Needs in IN_PROGRESS now
                 */
                IN_PROGRESS: number;
                /**
                 * Format: int32
                 * @description Needs in PENDING_INTERNAL now
                 */
                PENDING_INTERNAL: number;
                /**
                 * Format: int32
                 * @description Needs in PENDING_CLIENT now
                 */
                PENDING_CLIENT: number;
                /**
                 * Format: int32
                 * @description Needs in RESOLVED now
                 */
                RESOLVED: number;
                /**
                 * Format: int32
                 * @description Needs in ESCALATED now
                 */
                ESCALATED: number;
            };
            /** @description Every partner the caller sees, by name */
            byPartner: {
                /** Format: uuid */
                partnerId: string;
                partnerName: string;
                /**
                 * Format: int32
                 * @description Needs created during the period
                 */
                opened: number;
                /**
                 * Format: int32
                 * @description Needs resolved during the period and still resolved
                 */
                resolved: number;
                /**
                 * Format: int32
                 * @description Needs not RESOLVED now, whenever they were opened
                 */
                open: number;
                /**
                 * Format: int32
                 * @description Needs open and past their dueDate now
                 */
                overdue: number;
                /** @description Median whole hours from creation to resolution of the period's resolved needs (the mean of the two middle ones for an even count); null when none */
                medianHoursToResolve: number | null;
            }[];
            /** @description The period's texts; a partner role's, those on its partner's needs */
            texts: {
                /**
                 * Format: int32
                 * @description Texts received during the period
                 */
                received: number;
                /**
                 * Format: int32
                 * @description Texts sent during the period that the provider took: sent or delivered now
                 */
                sent: number;
                /**
                 * Format: int32
                 * @description Texts sent during the period that the provider reports delivered
                 */
                delivered: number;
                /**
                 * Format: int32
                 * @description Texts sent during the period that failed
                 */
                failed: number;
            };
            /** @description Each week (Monday to Sunday) the period touches, counting the period's days only */
            byWeek: {
                /** @description The Monday of the week */
                weekStart: string;
                /**
                 * Format: int32
                 * @description Needs created during the period
                 */
                opened: number;
                /**
                 * Format: int32
                 * @description Needs resolved during the period and still resolved
                 */
                resolved: number;
            }[];
        };
        NeedUpdate: {
            /** @enum {string} */
            status?: "NEW" | "IN_PROGRESS" | "PENDING_INTERNAL" | "PENDING_CLIENT" | "RESOLVED" | "ESCALATED";
            /**
             * Format: uuid
             * @description A member of the organization; null unassigns the need
             */
            assignedTo?: string | null;
            /** Format: uuid */
            partnerId?: string;
            /** @description Free key-value intake fields; at most 50 keys and 16 KiB as JSON. Contact keys are validated as constituent fields. */
            customFields?: {
                [key: string]: unknown | unknown;
            };
            isConfidential?: boolean;
            /**
             * Format: date-time
             * @description When the need is due, set by hand (a move to another partner keeps it); null: creation plus the partner's slaHours
             */
            dueDate?: string | null;
        };
        /** @description A new constituent; in a new household unless householdId names one */
        NewConstituent: {
            firstName?: string;
            lastName?: string;
            /** @description Kept and answered in E.164 (+15035550142); given in international form or as a national number of the organization's defaultCountry */
            phone?: string;
            email?: string;
            /**
             * Format: date
             * @description YYYY-MM-DD, a real date
             */
            dateOfBirth?: string;
            addressStreet?: string;
            addressCity?: string;
            /** @description Two-letter US state or territory code */
            addressState?: string;
            /** @description Five-digit ZIP code */
            addressZip?: string;
            /** Format: uuid */
            householdId?: string;
        };
        NewMember: {
            email: string;
            /** @enum {string} */
            role: "org_admin" | "partner_admin" | "partner_agent" | "staff" | "volunteer";
            fullName?: string;
            /** Format: uuid */
            partnerId?: string;
            /** @description Kept and answered in E.164; given in international form or as a national number of the organization's defaultCountry */
            phone?: string;
            /** @description Base URL of the app the invitation link opens (its /accept-invite page): on PUBLIC_BASE_URL's origin or one of the organization's appOrigins, with no user or password, backslash, query or fragment, else 400 at /appUrl. PUBLIC_BASE_URL by default */
            appUrl?: string;
            profiles?: ("needs_processor" | "intake_staff" | "sms_communicator" | "email_phone_communicator" | "pii_reader" | "duplicate_resolver")[];
            /** @enum {string} */
            language?: "en" | "es";
        };
        NewNeed: {
            /** Format: uuid */
            partnerId: string;
            /** @enum {string} */
            status?: "NEW" | "IN_PROGRESS" | "PENDING_INTERNAL" | "PENDING_CLIENT" | "RESOLVED" | "ESCALATED";
            /** @description Free key-value intake fields; at most 50 keys and 16 KiB as JSON. Contact keys are validated as constituent fields. */
            customFields?: {
                [key: string]: unknown | unknown;
            };
            isConfidential?: boolean;
            /** Format: uuid */
            parentNeedId?: string;
            /** Format: uuid */
            assignedTo?: string;
            /** Format: uuid */
            constituentId?: string;
            /** Format: uuid */
            householdId?: string;
            /**
             * Format: date-time
             * @description When the need is due, set by hand (a move to another partner keeps it); null: creation plus the partner's slaHours
             */
            dueDate?: string | null;
        };
        NewNote: {
            content: string;
        };
        NewPartner: {
            name: string;
            /**
             * Format: int32
             * @description SLA turnaround in hours
             */
            slaHours: number;
            description?: string;
            /** @description Words that route public intake here, in any language (case and accents aside); English and Spanish translations of common words match too */
            keywords?: string[];
            /** @description http(s) URL */
            website?: string;
            publicCategoryName?: string;
            isDefault?: boolean;
        };
        NewPublicNeed: {
            /**
             * Format: uuid
             * @description The organization; give this or organizationSlug (both must then name the same one)
             */
            organizationId?: string;
            /** @description The organization's slug (or one it has left), as a web form knows it; give this or organizationId */
            organizationSlug?: string;
            /** @description What the person needs, in their words */
            description: string;
            /** Format: uuid */
            partnerId?: string;
            /** @description Free key-value intake fields; at most 50 keys and 16 KiB as JSON. Contact keys are validated as constituent fields. */
            customFields?: {
                [key: string]: unknown | unknown;
            };
            isConfidential?: boolean;
            /** Format: uuid */
            parentNeedId?: string;
            /** Format: uuid */
            constituentId?: string;
            /** Format: uuid */
            householdId?: string;
            /** @enum {string} */
            language?: "en" | "es";
        };
        NewSavedView: {
            /** @description The view's name, one of the member's own once (kept trimmed) */
            name: string;
            filters: components["schemas"]["SavedViewFilters"];
        };
        NewService: {
            /** Format: uuid */
            partnerId: string;
            name: string;
            /** @description What the service does; null clears it */
            description?: string | null;
            /** @enum {string} */
            status?: "active" | "inactive" | "defunct" | "temporarily closed";
            /** @description Who may receive the service; null clears it */
            eligibility?: string | null;
            languages?: string[];
            schedule?: components["schemas"]["OpeningHoursInput"][];
            fees?: string | null;
            applicationProcess?: string | null;
            /** @description http(s) URL */
            url?: string | null;
            email?: string | null;
            /** @description Kept and answered in E.164; international form or a national number of the organization's defaultCountry */
            phone?: string | null;
            address?: components["schemas"]["ServiceAddressInput"];
            /** @description Whether the service takes referrals now (its capacity): an extension of HSDS */
            acceptingReferrals?: boolean;
            /** @description Terms imported before (400 naming an unknown one) */
            taxonomyTerms?: components["schemas"]["TaxonomyTermReference"][];
        };
        NewSms: {
            /** @description The message text */
            body: string;
        };
        NewWebhookEndpoint: {
            /** @description Where events are posted: an http(s) URL */
            url: string;
            /** @description The events sent to this endpoint */
            events: ("need.created" | "need.updated" | "note.added" | "constituent.created" | "constituent.merged" | "constituent.erased" | "household_match.resolved" | "sms.received" | "sms.status" | "message.attached" | "referral.received" | "referral.status_changed")[];
            enabled?: boolean;
        };
        OfferedService: {
            id: string;
            name: string;
            description?: string;
        };
        /** @description Hours on some days of every week (an HSDS schedule, freq WEEKLY) */
        OpeningHours: {
            /** @description The days of each week, as iCalendar writes them (HSDS byday) */
            byDay: ("MO" | "TU" | "WE" | "TH" | "FR" | "SA" | "SU")[];
            opensAt: string;
            closesAt: string;
            description?: string;
        };
        /** @description Hours on some days of every week (an HSDS schedule, freq WEEKLY) */
        OpeningHoursInput: {
            /** @description The days of each week, as iCalendar writes them (HSDS byday) */
            byDay: ("MO" | "TU" | "WE" | "TH" | "FR" | "SA" | "SU")[];
            /** @description Local time it opens, HH:MM */
            opensAt: string;
            /** @description Local time it closes, HH:MM, after opensAt */
            closesAt: string;
            /** @description A note on these hours */
            description?: string;
        };
        OrganizationSettings: {
            /** Format: uuid */
            id: string;
            name: string;
            slug: string;
            shortCode?: string;
            /** Format: int32 */
            maxConcurrency: number;
            tcrStatus?: string;
            /** @description What the organization does, in its own words: the description its directory of services publishes */
            description?: string;
            phoneNumber?: string;
            /**
             * Format: int32
             * @description Days audit events are kept
             */
            auditRetentionDays: number;
            /**
             * Format: int32
             * @description Days a person with no need activity is kept: the worker then erases them as POST /api/constituents/{id}/erase does; absent: kept
             */
            constituentRetentionDays?: number;
            /**
             * Format: int32
             * @description Days a resolved need that nobody changed keeps its free text: the worker then empties its customFields and its notes' and texts' content; absent: kept
             */
            needTextRetentionDays?: number;
            /** @description Origins (https://host[:port]) of the organization’s own apps that invitation links may point at (`appUrl`), besides PUBLIC_BASE_URL */
            appOrigins: string[];
            /** @description Origins (https://host[:port]) of partner sites whose pages may make a browser post the public intake */
            formOrigins: string[];
            /**
             * Format: int32
             * @description The local hour (0 to 23) from which members get their daily digest
             */
            digestHour: number;
            /** @description The organization's IANA time zone (America/Chicago, Europe/Madrid, UTC): its days, those of the daily digest's hour and of the reports */
            timeZone: string;
            /**
             * @deprecated
             * @description Deprecated: the former name of timeZone, answered with the same value and taken when timeZone is not given
             */
            digestTimeZone: string;
            /** @description The country (ISO 3166-1 alpha-2) whose national phone numbers are read as typed: 503 555 0142 is +15035550142 for US */
            defaultCountry: string;
            /** @description Whether a person who asks through the public intake is sent its reference number and what happens next (a text, or an email when only an email is given) */
            confirmRequests: boolean;
            /** @description Whether the organization's directory of services is published, anonymous and read-only, as HSDS 3.0 under /hsds/{slug} */
            publishDirectory: boolean;
            /** @description The service's PUBLIC_BASE_URL (read-only, the deployment's): where the links in mail point */
            publicBaseUrl: string;
        };
        OrganizationSettingsUpdate: {
            name?: string;
            /** @description Lowercase letters, digits, single hyphens */
            slug?: string;
            /** @description 4 to 6 uppercase letters */
            shortCode?: string | null;
            /**
             * Format: int32
             * @description SMS messages in flight at once (default 5)
             */
            maxConcurrency?: number;
            tcrStatus?: string | null;
            /** @description What the organization does, in its own words: the description its directory of services publishes; null clears it */
            description?: string | null;
            /**
             * Format: int32
             * @description Days a person with no need activity is kept: the worker then erases them as POST /api/constituents/{id}/erase does; absent: kept; null stops it
             */
            constituentRetentionDays?: number | null;
            /**
             * Format: int32
             * @description Days a resolved need that nobody changed keeps its free text: the worker then empties its customFields and its notes' and texts' content; absent: kept; null stops it
             */
            needTextRetentionDays?: number | null;
            /**
             * Format: int32
             * @description Days audit events are kept (default 2555)
             */
            auditRetentionDays?: number;
            /** @description Origins (https://host[:port]) of the organization’s own apps that invitation links may point at (`appUrl`), besides PUBLIC_BASE_URL; a list given replaces the one kept, [] empties it */
            appOrigins?: string[];
            /** @description Origins (https://host[:port]) of partner sites whose pages may make a browser post the public intake; a list given replaces the one kept, [] empties it */
            formOrigins?: string[];
            /**
             * Format: int32
             * @description The local hour (0 to 23) from which members get their daily digest (default 8)
             */
            digestHour?: number;
            /** @description The organization's IANA time zone (America/Chicago, Europe/Madrid, UTC): its days, those of the daily digest's hour and of the reports (default UTC) */
            timeZone?: string;
            /**
             * @deprecated
             * @description Deprecated: the former name of timeZone, answered with the same value and taken when timeZone is not given
             */
            digestTimeZone?: string;
            /** @description The country (ISO 3166-1 alpha-2) whose national phone numbers are read as typed: 503 555 0142 is +15035550142 for US (US for an organization made before it) */
            defaultCountry?: string;
            /** @description Whether a person who asks through the public intake is sent its reference number and what happens next (a text, or an email when only an email is given) (default false) */
            confirmRequests?: boolean;
            /** @description Whether the organization's directory of services is published, anonymous and read-only, as HSDS 3.0 under /hsds/{slug} (default false) */
            publishDirectory?: boolean;
        };
        PairingAnswer: {
            pairingId: string;
            organizationId: string;
            name: string;
            /** @description A raw Ed25519 public key, base64 */
            publicKey: string;
        };
        PairingInvitation: {
            /** @description Handed to the other organization's admin, who redeems it once */
            code: string;
            /** Format: date-time */
            expiresAt: string;
        };
        /** @description A partner location facility */
        Partner: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organizationId: string;
            name: string;
            /**
             * Format: int32
             * @description SLA turnaround in hours
             */
            slaHours: number;
            isArchived: boolean;
            isDefault: boolean;
            description?: string;
            /** @description Words that route public intake here, in any language (case and accents aside); English and Spanish translations of common words match too */
            keywords?: string[];
            website?: string;
            publicCategoryName?: string;
            /** Format: date-time */
            createdAt: string;
        };
        PartnerUpdate: {
            name?: string;
            /**
             * Format: int32
             * @description SLA turnaround in hours
             */
            slaHours?: number;
            isArchived?: boolean;
            description?: string;
            /** @description Words that route public intake here, in any language (case and accents aside); English and Spanish translations of common words match too */
            keywords?: string[];
            /** @description http(s) URL */
            website?: string;
            publicCategoryName?: string;
            isDefault?: boolean;
        };
        PasswordChange: {
            currentPassword: string;
            /** @description At least 12 characters */
            newPassword: string;
        };
        /** @description Constituents this one may be, each with what they share, matched on the details the caller may read only (a detail it may not read is not matched on: the answer is the same whether or not it is on file); present only when there are some */
        PossibleDuplicates: {
            /** Format: uuid */
            constituentId: string;
            reasons: ("same phone" | "same email" | "same name and date of birth" | "same last name and address")[];
        }[];
        /** @description RFC 9457 problem details (application/problem+json): every error but 400 */
        Problem: {
            /** @enum {string} */
            type: "tag:intake.example,2026:problems/invalid" | "tag:intake.example,2026:problems/unauthorized" | "tag:intake.example,2026:problems/forbidden" | "tag:intake.example,2026:problems/not-found" | "tag:intake.example,2026:problems/conflict" | "tag:intake.example,2026:problems/payload-too-large" | "tag:intake.example,2026:problems/unsupported-media-type" | "tag:intake.example,2026:problems/idempotency-key-reused" | "tag:intake.example,2026:problems/too-many-requests" | "tag:intake.example,2026:problems/internal" | "tag:intake.example,2026:problems/provider-failed" | "tag:intake.example,2026:problems/unavailable";
            /** @enum {string} */
            title: "Bad request" | "Unauthorized" | "Forbidden" | "Not found" | "Conflict" | "Payload too large" | "Unsupported media type" | "Unprocessable content" | "Too many requests" | "Internal server error" | "Bad gateway" | "Service unavailable";
            /**
             * Format: int32
             * @description The HTTP status, repeated
             */
            status: number;
            /** @description What went wrong in particular, in words a person reads */
            detail: string;
        };
        Profile: {
            /** Format: uuid */
            id: string;
            email: string;
            fullName?: string;
            phone?: string;
            /** @enum {string} */
            language: "en" | "es";
            /** @description What I am mailed about: my choices over my role's defaults */
            notifications: {
                /** @description A need arrived through public intake or the form (its partner's members, and who sees the whole organization) */
                newNeeds: boolean;
                /** @description Someone else assigned a need to me */
                assignedToMe: boolean;
                /** @description The daily digest of my overdue needs and my partner's unassigned ones */
                dailyDigest: boolean;
            };
            /** @enum {string} */
            role: "org_admin" | "partner_admin" | "partner_agent" | "staff" | "volunteer";
            /** Format: uuid */
            partnerId?: string;
            profiles: ("needs_processor" | "intake_staff" | "sms_communicator" | "email_phone_communicator" | "pii_reader" | "duplicate_resolver")[];
            /** @description What the member may do, by the permissions table (the API reference, "Permissions"): a client shows only these actions; the server still decides each request (and its scope) */
            permissions: ("needs:read" | "needs:add-note" | "partners:list" | "profile:read" | "profile:update" | "needs:create" | "needs:update" | "needs:send-sms" | "constituents:read-pii" | "constituents:read-contact" | "needs:read-confidential" | "constituents:read" | "constituents:update" | "constituents:merge" | "constituents:erase" | "household-matches:list" | "household-matches:resolve" | "partners:create" | "partners:update" | "services:list" | "services:manage" | "taxonomy:import" | "members:list" | "members:manage" | "organization:settings" | "webhooks:manage" | "referral-partners:manage" | "referrals:send" | "referrals:respond" | "referrals:read" | "audit:read" | "reports:read" | "records:export" | "records:import")[];
        };
        ProfileUpdate: {
            fullName?: string;
            /** @description Kept and answered in E.164; given in international form or as a national number of the organization's defaultCountry */
            phone?: string | null;
            /** @enum {string} */
            language?: "en" | "es";
            /** @description The kinds to change; the others stay as they are */
            notifications?: {
                /** @description A need arrived through public intake or the form (its partner's members, and who sees the whole organization) */
                newNeeds?: boolean;
                /** @description Someone else assigned a need to me */
                assignedToMe?: boolean;
                /** @description The daily digest of my overdue needs and my partner's unassigned ones */
                dailyDigest?: boolean;
            };
        };
        /** @description The created need as an anonymous caller sees it */
        PublicNeed: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organizationId: string;
            /** Format: uuid */
            partnerId: string;
            /** @enum {string} */
            status: "NEW" | "IN_PROGRESS" | "PENDING_INTERNAL" | "PENDING_CLIENT" | "RESOLVED" | "ESCALATED";
            /** @description Free key-value intake fields; at most 50 keys and 16 KiB as JSON. Contact keys are validated as constituent fields. */
            customFields: {
                [key: string]: unknown | unknown;
            };
            isConfidential: boolean;
            /** Format: uuid */
            parentNeedId?: string;
            /** Format: uuid */
            assignedTo?: string;
            /** Format: uuid */
            createdBy?: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /**
             * Format: date-time
             * @description When the need is due: set by hand, or creation plus the partner's slaHours
             */
            dueDate?: string;
            /** @description Whether dueDate was set by hand (kept when the need moves) rather than the partner's SLA */
            dueDateSetByHand: boolean;
            /**
             * Format: date-time
             * @description When the need was resolved; absent while it is open
             */
            resolvedAt?: string;
            /** @description Human-readable reference such as FOOD-1001 */
            referenceNumber: string;
            /** @description true: the person texted after all their needs were resolved and no member has answered since (a text, a note or a change clears it); the status is unchanged */
            needsAttention: boolean;
        };
        QuickReplies: {
            /** @description The saved replies, in the order staff see them */
            replies: components["schemas"]["QuickReply"][];
        };
        QuickRepliesUpdate: {
            /** @description Every reply: the list kept is replaced whole */
            replies: components["schemas"]["QuickReply"][];
        };
        QuickReply: {
            /** @description What staff pick the reply by; unique within the organization */
            label: string;
            /** @description The text in each language it is written in, one at least */
            body: {
                /** @description The text in English; may hold {reference} and {partner}, filled by the console with the need's reference number and its partner's name */
                en?: string;
                /** @description The text in Spanish; may hold {reference} and {partner}, filled by the console with the need's reference number and its partner's name */
                es?: string;
            };
        };
        /** @description One organization's side of a referral; the id is the same on both sides */
        Referral: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            direction: "in" | "out";
            /** @enum {string} */
            status: "requested" | "received" | "accepted" | "rejected" | "in-progress" | "completed" | "cancelled";
            referralPartner: {
                /** Format: uuid */
                id: string;
                name: string;
            };
            /** @description The receiver's service */
            serviceId: string;
            /** Format: uuid */
            needId: string;
            /** @enum {string} */
            outcome?: "got_help" | "could_not_contact" | "no_capacity" | "other";
            /** @description The person's consent to share, kept by the sender */
            consent?: {
                /** Format: date-time */
                obtainedAt: string;
                /** @enum {string} */
                method: "verbal" | "written" | "electronic";
                /** Format: date-time */
                expiresAt: string;
                /** @description The person's contact fields that may travel */
                fields: ("firstName" | "lastName" | "phone" | "email" | "dateOfBirth" | "addressStreet" | "addressCity" | "addressState" | "addressZip")[];
            };
            /** Format: date-time */
            consentRevokedAt?: string;
            /** @description A message about it ran out of tries: send it again */
            notDelivered?: boolean;
            history: {
                /** @enum {string} */
                status: "requested" | "received" | "accepted" | "rejected" | "in-progress" | "completed" | "cancelled";
                /** Format: date-time */
                at: string;
                by: {
                    /** @description The organization that made the move */
                    organization: string;
                    /** Format: uuid */
                    member?: string;
                };
                /** @description A decline's reason, a completion's note */
                note?: string;
            }[];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /** @description An organization paired with this one, on this instance or another */
        ReferralPartner: {
            /** Format: uuid */
            id: string;
            /** @description The partner organization's name, as its instance gave it */
            name: string;
            /** @description The partner's instance (its PUBLIC_BASE_URL) */
            baseUrl: string;
            /** @enum {string} */
            status: "active" | "ended";
            /** Format: date-time */
            createdAt: string;
        };
        RefreshRequest: {
            refreshToken: string;
        };
        /** @description One of the caller's saved views of the inbox */
        SavedView: {
            /** Format: uuid */
            id: string;
            /** @description The view's name */
            name: string;
            filters: components["schemas"]["SavedViewFilters"];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /** @description The query parameters of `GET /api/needs` the view applies, in their shapes (`status` a list, `overdue` a boolean) */
        SavedViewFilters: {
            /** @description Needs in any of these statuses */
            status?: ("NEW" | "IN_PROGRESS" | "PENDING_INTERNAL" | "PENDING_CLIENT" | "RESOLVED" | "ESCALATED")[];
            /** Format: uuid */
            partnerId?: string;
            /** Format: uuid */
            assignedTo?: string;
            /** Format: uuid */
            constituentId?: string;
            /** @description true: open needs past their dueDate, as of the service's clock (false is no filter) */
            overdue?: boolean;
            /**
             * Format: date-time
             * @description Open needs due before this time
             */
            dueBefore?: string;
            /**
             * Format: date-time
             * @description Needs created at or after this time
             */
            createdFrom?: string;
            /**
             * Format: date-time
             * @description Needs created before this time
             */
            createdTo?: string;
            /**
             * Format: date-time
             * @description Needs resolved (and not reopened since) at or after this time
             */
            resolvedFrom?: string;
            /**
             * Format: date-time
             * @description Needs resolved (and not reopened since) before this time
             */
            resolvedTo?: string;
            /** @description true: needs marked for attention (needsAttention), resolved ones included (false is no filter) */
            attention?: boolean;
            /** @description The text searched for */
            q?: string;
            /** @enum {string} */
            sort?: "createdAt" | "-createdAt" | "dueDate" | "-dueDate" | "status" | "-status";
        };
        /** @description A new name, new filters (replacing the old whole), or both */
        SavedViewUpdate: {
            /** @description The view's name, one of the member's own once (kept trimmed) */
            name?: string;
            filters?: components["schemas"]["SavedViewFilters"];
        };
        /** @description The people and households served in a period: those with a need resolved in it, each counted once */
        ServedReport: {
            /** @description The first day of the period */
            from: string;
            /** @description The last day of the period */
            to: string;
            /**
             * Format: date-time
             * @description The first instant of the period's first day
             */
            since: string;
            /**
             * Format: date-time
             * @description The first instant after the period's last day
             */
            until: string;
            /** @description The organization's time zone, whose days these are */
            timeZone: string;
            /**
             * Format: int32
             * @description Different people on file (constituentId) of the needs resolved in the period
             */
            people: number;
            /**
             * Format: int32
             * @description Different households (householdId) of the needs resolved in the period
             */
            households: number;
            /** @description Every partner the caller sees, by name; a person served by two partners counts under each, and once in all */
            byPartner: {
                /** Format: uuid */
                partnerId: string;
                partnerName: string;
                /**
                 * Format: int32
                 * @description Different people on file (constituentId) of the needs resolved in the period
                 */
                people: number;
                /**
                 * Format: int32
                 * @description Different households (householdId) of the needs resolved in the period
                 */
                households: number;
            }[];
        };
        /** @description What a partner offers: an HSDS 3.0 service */
        Service: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            partnerId: string;
            name: string;
            description?: string;
            /** @enum {string} */
            status: "active" | "inactive" | "defunct" | "temporarily closed";
            /** @description Who may receive the service */
            eligibility?: string;
            /** @description BCP 47 language tags, canonical */
            languages: string[];
            schedule: components["schemas"]["OpeningHours"][];
            fees?: string;
            applicationProcess?: string;
            url?: string;
            email?: string;
            /** @description E.164 */
            phone?: string;
            address?: components["schemas"]["ServiceAddress"];
            /** @description Whether the service takes referrals now (its capacity): an extension of HSDS */
            acceptingReferrals: boolean;
            /** @description Its terms, with their names as last imported */
            taxonomyTerms: components["schemas"]["TaxonomyTerm"][];
            isArchived: boolean;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /** @description Where the service is given: an HSDS physical address */
        ServiceAddress: {
            address1: string;
            city: string;
            stateProvince: string;
            postalCode: string;
            /** @description ISO 3166-1 alpha-2 */
            country: string;
        };
        /** @description Where the service is given: an HSDS physical address */
        ServiceAddressInput: {
            address1: string;
            city: string;
            stateProvince: string;
            postalCode: string;
            /** @description ISO 3166-1 alpha-2 */
            country: string;
        } | null;
        ServiceUpdate: {
            /** Format: uuid */
            partnerId?: string;
            name?: string;
            isArchived?: boolean;
            /** @description What the service does; null clears it */
            description?: string | null;
            /** @enum {string} */
            status?: "active" | "inactive" | "defunct" | "temporarily closed";
            /** @description Who may receive the service; null clears it */
            eligibility?: string | null;
            languages?: string[];
            schedule?: components["schemas"]["OpeningHoursInput"][];
            fees?: string | null;
            applicationProcess?: string | null;
            /** @description http(s) URL */
            url?: string | null;
            email?: string | null;
            /** @description Kept and answered in E.164; international form or a national number of the organization's defaultCountry */
            phone?: string | null;
            address?: components["schemas"]["ServiceAddressInput"];
            /** @description Whether the service takes referrals now (its capacity): an extension of HSDS */
            acceptingReferrals?: boolean;
            /** @description Terms imported before (400 naming an unknown one) */
            taxonomyTerms?: components["schemas"]["TaxonomyTermReference"][];
        };
        StartNeedFromMessage: {
            /**
             * Format: uuid
             * @description The partner the new need is for
             */
            partnerId: string;
            /** @description What the need is about; kept as customFields.description */
            description?: string;
        };
        /** @description A term of a vocabulary the organization imported */
        TaxonomyTerm: {
            /** Format: uuid */
            id: string;
            vocabulary: string;
            code: string;
            name: string;
            description?: string;
        };
        /** @description An imported term */
        TaxonomyTermReference: {
            /** @description The vocabulary */
            vocabulary: string;
            code: string;
        };
        TokenPair: {
            accessToken: string;
            refreshToken: string;
            /** @constant */
            tokenType: "Bearer";
            /**
             * Format: int32
             * @description Seconds until the access token expires
             */
            expiresIn: number;
        };
        UnsentMessage: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            channel: "email" | "sms";
            /** @description A mail's template (invitation, password_reset, need_notification...); sms for a text */
            kind: string;
            /** @description The address or phone number (E.164) it was to */
            recipient: string;
            /** @description A mail's subject; a text has none */
            subject?: string;
            /** @description The text as it would have been sent; a password reset's link is shown as [link withheld] */
            body: string;
            /** Format: date-time */
            createdAt: string;
        };
        /** @description RFC 9457 problem details (application/problem+json) of a 400, with the offending fields in errors */
        ValidationProblem: {
            /** @enum {string} */
            type: "tag:intake.example,2026:problems/invalid" | "tag:intake.example,2026:problems/unauthorized" | "tag:intake.example,2026:problems/forbidden" | "tag:intake.example,2026:problems/not-found" | "tag:intake.example,2026:problems/conflict" | "tag:intake.example,2026:problems/payload-too-large" | "tag:intake.example,2026:problems/unsupported-media-type" | "tag:intake.example,2026:problems/idempotency-key-reused" | "tag:intake.example,2026:problems/too-many-requests" | "tag:intake.example,2026:problems/internal" | "tag:intake.example,2026:problems/provider-failed" | "tag:intake.example,2026:problems/unavailable";
            /** @enum {string} */
            title: "Bad request" | "Unauthorized" | "Forbidden" | "Not found" | "Conflict" | "Payload too large" | "Unsupported media type" | "Unprocessable content" | "Too many requests" | "Internal server error" | "Bad gateway" | "Service unavailable";
            /**
             * Format: int32
             * @description The HTTP status, repeated
             */
            status: number;
            /** @description What went wrong in particular, in words a person reads */
            detail: string;
            errors?: components["schemas"]["FieldError"][];
        };
        /** @description One event sent (or being sent) to one endpoint */
        WebhookDelivery: {
            /** @description The webhook-id header, the same on every try */
            id: string;
            /** @enum {string} */
            eventType: "need.created" | "need.updated" | "note.added" | "constituent.created" | "constituent.merged" | "constituent.erased" | "household_match.resolved" | "sms.received" | "sms.status" | "message.attached" | "referral.received" | "referral.status_changed";
            /** @enum {string} */
            status: "pending" | "sending" | "sent" | "failed";
            /** Format: int32 */
            attempts: number;
            /**
             * Format: int32
             * @description The endpoint's HTTP status at the latest try
             */
            lastStatusCode?: number;
            lastError?: string;
            /** Format: date-time */
            nextAttemptAt?: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            deliveredAt?: string;
        };
        /** @description A receiver of signed events */
        WebhookEndpoint: {
            /** Format: uuid */
            id: string;
            url: string;
            events: ("need.created" | "need.updated" | "note.added" | "constituent.created" | "constituent.merged" | "constituent.erased" | "household_match.resolved" | "sms.received" | "sms.status" | "message.attached" | "referral.received" | "referral.status_changed")[];
            /** @description False when disabled by hand or after repeated failure (see disabledAt) */
            enabled: boolean;
            /**
             * Format: int32
             * @description Deliveries failed for good in a row
             */
            consecutiveFailures: number;
            /**
             * Format: date-time
             * @description When repeated failure disabled the endpoint
             */
            disabledAt?: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        WebhookEndpointUpdate: {
            /** @description Where events are posted: an http(s) URL */
            url?: string;
            /** @description The events sent to this endpoint */
            events?: ("need.created" | "need.updated" | "note.added" | "constituent.created" | "constituent.merged" | "constituent.erased" | "household_match.resolved" | "sms.received" | "sms.status" | "message.attached" | "referral.received" | "referral.status_changed")[];
            /** @description true re-enables an endpoint that repeated failure disabled */
            enabled?: boolean;
        };
    };
    responses: never;
    parameters: {
        /** @description Optional: 1 to 255 visible ASCII characters, a random UUID at best. A retry within 24 hours with the same key and the same request answers what the first made (the record as it reads now) and creates nothing; with another request, 422; while the first is still being processed, 409. */
        IdempotencyKey: string;
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    checkLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                    };
                };
            };
        };
    };
    checkReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ready";
                    };
                };
            };
            /** @description Service unavailable */
            503: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                    organizationSlug?: string;
                };
            };
        };
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPair"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    refreshSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RefreshRequest"];
            };
        };
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPair"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    acceptInvite: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvitationAcceptance"];
            };
        };
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPair"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    requestPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                };
            };
        };
        responses: {
            /** @description Response for status 202 */
            202: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "accepted";
                    };
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    resetPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvitationAcceptance"];
            };
        };
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPair"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RefreshRequest"];
            };
        };
        responses: {
            /** @description Response for status 204 */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    startBrowserSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                    organizationSlug?: string;
                };
            };
        };
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BrowserSession"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    refreshBrowserSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BrowserSession"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    endBrowserSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 204 */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    submitPublicNeed: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional: 1 to 255 visible ASCII characters, a random UUID at best. A retry within 24 hours with the same key and the same request answers what the first made (the record as it reads now) and creates nothing; with another request, 422; while the first is still being processed, 409. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewPublicNeed"];
            };
        };
        responses: {
            /** @description The created need as an anonymous caller sees it */
            201: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublicNeed"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unprocessable content */
            422: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listNeeds: {
        parameters: {
            query?: {
                status?: ("NEW" | "IN_PROGRESS" | "PENDING_INTERNAL" | "PENDING_CLIENT" | "RESOLVED" | "ESCALATED")[];
                partnerId?: string;
                assignedTo?: string;
                constituentId?: string;
                overdue?: boolean;
                dueBefore?: string;
                createdFrom?: string;
                createdTo?: string;
                resolvedFrom?: string;
                resolvedTo?: string;
                attention?: boolean;
                q?: string;
                sort?: "createdAt" | "-createdAt" | "dueDate" | "-dueDate" | "status" | "-status";
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "X-Total-Count"?: number;
                    Link?: string;
                    "X-Total-Count-Is-Lower-Bound"?: boolean;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Need"][];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createNeed: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional: 1 to 255 visible ASCII characters, a random UUID at best. A retry within 24 hours with the same key and the same request answers what the first made (the record as it reads now) and creates nothing; with another request, 422; while the first is still being processed, 409. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewNeed"];
            };
        };
        responses: {
            /** @description The new need; when its contact keys made a constituent who may be on file already, who and why */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedNeed"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unprocessable content */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    importNeeds: {
        parameters: {
            query?: {
                dryRun?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The needs as CSV (RFC 4180, UTF-8 with or without a byte-order mark), a header row of the export's column names; at most 50000 rows and 10485760 bytes */
        requestBody: {
            content: {
                "text/csv": string;
            };
        };
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportReport"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    bulkUpdateNeeds: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BulkNeedUpdate"];
            };
        };
        responses: {
            /** @description What came of each need */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkNeedUpdateResults"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    exportNeeds: {
        parameters: {
            query: {
                status?: ("NEW" | "IN_PROGRESS" | "PENDING_INTERNAL" | "PENDING_CLIENT" | "RESOLVED" | "ESCALATED")[];
                partnerId?: string;
                assignedTo?: string;
                constituentId?: string;
                overdue?: boolean;
                dueBefore?: string;
                createdFrom?: string;
                createdTo?: string;
                resolvedFrom?: string;
                resolvedTo?: string;
                attention?: boolean;
                q?: string;
                format: "csv";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every need the filters match, as CSV (RFC 4180): UTF-8, CRLF line ends, a header row; a cell opening with = + - @, tab or CR is prefixed with a single quote. Streamed. */
            200: {
                headers: {
                    "Content-Disposition"?: string;
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getNeed: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A need, and whether its person may be texted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NeedDetail"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateNeed: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NeedUpdate"];
            };
        };
        responses: {
            /** @description A request for assistance */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Need"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    addNote: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional: 1 to 255 visible ASCII characters, a random UUID at best. A retry within 24 hours with the same key and the same request answers what the first made (the record as it reads now) and creates nothing; with another request, 422; while the first is still being processed, 409. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewNote"];
            };
        };
        responses: {
            /** @description A note or message on a need */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Interaction"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unprocessable content */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sendSms: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional: 1 to 255 visible ASCII characters, a random UUID at best. A retry within 24 hours with the same key and the same request answers what the first made (the record as it reads now) and creates nothing; with another request, 422; while the first is still being processed, 409. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewSms"];
            };
        };
        responses: {
            /** @description Response for status 202 */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        interactionId: string;
                    };
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unprocessable content */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listInteractions: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "X-Total-Count"?: number;
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Interaction"][];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listNeedHistory: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "X-Total-Count"?: number;
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NeedChange"][];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listMessages: {
        parameters: {
            query?: {
                unattached?: boolean;
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "X-Total-Count"?: number;
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"][];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    attachMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AttachMessage"];
            };
        };
        responses: {
            /** @description Response for status 204 */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    startNeedFromMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StartNeedFromMessage"];
            };
        };
        responses: {
            /** @description A request for assistance */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Need"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    replyToMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MessageReply"];
            };
        };
        responses: {
            /** @description Response for status 202 */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        interactionId: string;
                    };
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listPartners: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "X-Total-Count"?: number;
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Partner"][];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createPartner: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewPartner"];
            };
        };
        responses: {
            /** @description A partner location facility */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Partner"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updatePartner: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PartnerUpdate"];
            };
        };
        responses: {
            /** @description A partner location facility */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Partner"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listServices: {
        parameters: {
            query?: {
                partnerId?: string;
                status?: "active" | "inactive" | "defunct" | "temporarily closed";
                includeArchived?: boolean;
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "X-Total-Count"?: number;
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Service"][];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createService: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewService"];
            };
        };
        responses: {
            /** @description What a partner offers: an HSDS 3.0 service */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Service"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getService: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What a partner offers: an HSDS 3.0 service */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Service"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateService: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ServiceUpdate"];
            };
        };
        responses: {
            /** @description What a partner offers: an HSDS 3.0 service */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Service"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listTaxonomyTerms: {
        parameters: {
            query?: {
                vocabulary?: string;
                q?: string;
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "X-Total-Count"?: number;
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaxonomyTerm"][];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    importTaxonomyTerms: {
        parameters: {
            query: {
                vocabulary: string;
                dryRun?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The vocabulary's terms as CSV (RFC 4180, UTF-8 with or without a byte-order mark), a header row of its columns: code, name and (optionally) description; at most 50000 rows and 10485760 bytes */
        requestBody: {
            content: {
                "text/csv": string;
            };
        };
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportReport"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getHsdsAbout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organizationSlug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HsdsAbout"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listHsdsServices: {
        parameters: {
            query?: {
                page?: number;
                per_page?: number;
                search?: string;
                taxonomy_term_id?: string;
                modified_after?: string;
            };
            header?: never;
            path: {
                organizationSlug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HsdsServicePage"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getHsdsService: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organizationSlug: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An HSDS 3.0 service record (HSDS's service.json) */
            200: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HsdsService"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listHsdsOrganizations: {
        parameters: {
            query?: {
                page?: number;
                per_page?: number;
            };
            header?: never;
            path: {
                organizationSlug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HsdsOrganizationPage"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getHsdsOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organizationSlug: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An HSDS 3.0 organization record (HSDS's organization.json) */
            200: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HsdsOrganization"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listHsdsServicesAtLocations: {
        parameters: {
            query?: {
                page?: number;
                per_page?: number;
            };
            header?: never;
            path: {
                organizationSlug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HsdsServiceAtLocationPage"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getHsdsServiceAtLocation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organizationSlug: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An HSDS 3.0 service_at_location record (HSDS's service_at_location.json) */
            200: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HsdsServiceAtLocation"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    searchConstituents: {
        parameters: {
            query?: {
                query?: string;
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "X-Total-Count"?: number;
                    Link?: string;
                    "X-Total-Count-Is-Lower-Bound"?: boolean;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Constituent"][];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createConstituent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description A new constituent; in a new household unless householdId names one */
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewConstituent"];
            };
        };
        responses: {
            /** @description The new constituent, and who it may be already */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedConstituent"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    exportConstituents: {
        parameters: {
            query: {
                query?: string;
                format: "csv";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every constituent the query matches, as CSV (RFC 4180): UTF-8, CRLF line ends, a header row; a cell opening with = + - @, tab or CR is prefixed with a single quote. Streamed. */
            200: {
                headers: {
                    "Content-Disposition"?: string;
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    importConstituents: {
        parameters: {
            query?: {
                dryRun?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The constituents as CSV (RFC 4180, UTF-8 with or without a byte-order mark), a header row of the export's column names; at most 50000 rows and 10485760 bytes */
        requestBody: {
            content: {
                "text/csv": string;
            };
        };
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportReport"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    mergeConstituents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConstituentMerge"];
            };
        };
        responses: {
            /** @description A person served; phone, email, address and date of birth appear only with the permission to read them */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Constituent"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    eraseConstituent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A person served; phone, email, address and date of birth appear only with the permission to read them */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Constituent"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    checkConstituentDuplicates: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The details of a person about to be registered: those duplicate detection compares */
        requestBody: {
            content: {
                "application/json": components["schemas"]["DuplicateCheckDetails"];
            };
        };
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DuplicateCheck"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getConstituent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A constituent, and when texts to its number stopped */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConstituentDetail"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateConstituent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** @description Fields to change; null clears a field */
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConstituentUpdate"];
            };
        };
        responses: {
            /** @description A person served; phone, email, address and date of birth appear only with the permission to read them */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Constituent"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listConstituentNeeds: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "X-Total-Count"?: number;
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Need"][];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getConstituentHousehold: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Constituent"][];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listHouseholdMatches: {
        parameters: {
            query?: {
                status?: "OPEN" | "RESOLVED" | "DISMISSED";
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "X-Total-Count"?: number;
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HouseholdMatch"][];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    resolveHouseholdMatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["HouseholdMatchResolution"];
            };
        };
        responses: {
            /** @description A possible duplicate, with both people as the caller may read them and why they may be one person */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HouseholdMatch"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listMembers: {
        parameters: {
            query?: {
                active?: boolean;
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "X-Total-Count"?: number;
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"][];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    inviteMember: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewMember"];
            };
        };
        responses: {
            /** @description Response for status 201 */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    resendInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvitationResend"];
            };
        };
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MemberUpdate"];
            };
        };
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deactivateMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 204 */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getProfile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Profile"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateProfile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProfileUpdate"];
            };
        };
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Profile"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    changeEmail: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmailChangeRequest"];
            };
        };
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailChange"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    changePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordChange"];
            };
        };
        responses: {
            /** @description Response for status 204 */
            204: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request */
            400: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listSavedViews: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "X-Total-Count"?: number;
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedView"][];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createSavedView: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewSavedView"];
            };
        };
        responses: {
            /** @description One of the caller's saved views of the inbox */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedView"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateSavedView: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** @description A new name, new filters (replacing the old whole), or both */
        requestBody: {
            content: {
                "application/json": components["schemas"]["SavedViewUpdate"];
            };
        };
        responses: {
            /** @description One of the caller's saved views of the inbox */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedView"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteSavedView: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 204 */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOrganizationSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationSettings"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateOrganizationSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrganizationSettingsUpdate"];
            };
        };
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationSettings"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getEmailSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailSettings"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateEmailSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmailSettingsUpdate"];
            };
        };
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailSettings"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    testEmailSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    provider: "smtp" | "postmark" | "ses" | "sendgrid";
                    /** @description Secret: smtp://user:password@host:587 for smtp, ACCESS_KEY_ID:SECRET_ACCESS_KEY:REGION for ses, the provider's API key for the others. Left out: the key stored for the same provider (400 when none is) */
                    apiKey?: string;
                    fromEmail: string;
                    fromName?: string;
                    toEmail: string;
                };
            };
        };
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        delivered: true;
                        /** @description The provider's id of the message */
                        messageId?: string;
                    };
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Bad gateway */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getQuickReplies: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuickReplies"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateQuickReplies: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QuickRepliesUpdate"];
            };
        };
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuickReplies"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listDevelopmentOutbox: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "X-Total-Count"?: number;
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnsentMessage"][];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listAuditEvents: {
        parameters: {
            query?: {
                memberId?: string;
                recordType?: "organization" | "member" | "partner" | "service" | "need" | "constituent" | "household_match" | "email_settings" | "interaction" | "webhook_endpoint" | "referral_partner" | "referral";
                recordId?: string;
                action?: "create" | "update" | "delete" | "read" | "merge" | "erase" | "resolve" | "add_note" | "send_sms" | "receive_sms" | "sms_status" | "invite" | "accept_invite" | "set_password" | "request_password_reset" | "reset_password" | "change_password" | "request_email_change" | "change_email" | "login" | "logout" | "deactivate" | "reactivate" | "import" | "apply_retention" | "revoke_session";
                since?: string;
                until?: string;
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "X-Total-Count"?: number;
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEvent"][];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getNeedsReport: {
        parameters: {
            query: {
                from: string;
                to: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The needs of a period and as of now, in all and per partner and week */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NeedsReport"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getServedReport: {
        parameters: {
            query: {
                from: string;
                to: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The people and households served in a period: those with a need resolved in it, each counted once */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServedReport"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    exportServedReport: {
        parameters: {
            query: {
                from: string;
                to: string;
                format: "csv";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The people and households served: a first row for all partners (partnerId and partnerName empty), then one per partner, as CSV (RFC 4180): UTF-8, CRLF line ends, a header row; a cell opening with = + - @, tab or CR is prefixed with a single quote. Streamed. */
            200: {
                headers: {
                    "Content-Disposition"?: string;
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    receiveSms: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: string;
                };
                "application/x-www-form-urlencoded": {
                    [key: string]: string;
                };
            };
        };
        responses: {
            /** @description Empty TwiML */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Response></Response>";
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    recordSmsStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: string;
                };
                "application/x-www-form-urlencoded": {
                    [key: string]: string;
                };
            };
        };
        responses: {
            /** @description Response for status 204 */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "X-Total-Count"?: number;
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"][];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewWebhookEndpoint"];
            };
        };
        responses: {
            /** @description The new endpoint with its signing secret */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedWebhookEndpoint"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A receiver of signed events */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEndpointUpdate"];
            };
        };
        responses: {
            /** @description A receiver of signed events */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 204 */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                page?: number;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "X-Total-Count"?: number;
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"][];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    streamEvents: {
        parameters: {
            query?: never;
            header?: {
                "last-event-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Server-sent events: `event:` the type (a webhook event's: need.created, note.added, sms.received…), `data:` the webhook payload's `data` (ids only), `id:` an increasing event id; `event: reset` when what was missed is no longer kept (reload); a comment every 20 s. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listReferralPartners: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["ReferralPartner"][];
                    };
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    pairWithPartner: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A pairing code from the other organization */
                    code: string;
                };
            };
        };
        responses: {
            /** @description An organization paired with this one, on this instance or another */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReferralPartner"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Bad gateway */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createPairingInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 201 */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PairingInvitation"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    endPairing: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 204 */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listPartnerServices: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["OfferedService"][];
                    };
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Bad gateway */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sendReferral: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    referralPartnerId: string;
                    /** @description The partner's service (GET /api/referral-partners/{id}/services) */
                    serviceId: string;
                    /** @description The person's consent to share, kept by the sender */
                    consent?: {
                        /** Format: date-time */
                        obtainedAt: string;
                        /** @enum {string} */
                        method: "verbal" | "written" | "electronic";
                        /** Format: date-time */
                        expiresAt: string;
                        /** @description The person's contact fields that may travel */
                        fields: ("firstName" | "lastName" | "phone" | "email" | "dateOfBirth" | "addressStreet" | "addressCity" | "addressState" | "addressZip")[];
                    };
                    /** @description Travels with the referral */
                    note?: string;
                };
            };
        };
        responses: {
            /** @description One organization's side of a referral; the id is the same on both sides */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Referral"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listReferrals: {
        parameters: {
            query?: {
                direction?: "in" | "out";
                status?: "requested" | "received" | "accepted" | "rejected" | "in-progress" | "completed" | "cancelled";
                page?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Response for status 200 */
            200: {
                headers: {
                    "X-Total-Count"?: number;
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Referral"][];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getReferral: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One organization's side of a referral; the id is the same on both sides */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Referral"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    declineReferral: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    reason: string;
                };
            };
        };
        responses: {
            /** @description One organization's side of a referral; the id is the same on both sides */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Referral"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    completeReferral: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    outcome: "got_help" | "could_not_contact" | "no_capacity" | "other";
                    /** @description How it went */
                    note?: string;
                };
            };
        };
        responses: {
            /** @description One organization's side of a referral; the id is the same on both sides */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Referral"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    revokeReferralConsent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One organization's side of a referral; the id is the same on both sides */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Referral"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sendReferralAgain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One organization's side of a referral; the id is the same on both sides */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Referral"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    acceptReferral: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One organization's side of a referral; the id is the same on both sides */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Referral"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    startReferral: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One organization's side of a referral; the id is the same on both sides */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Referral"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    cancelReferral: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One organization's side of a referral; the id is the same on both sides */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Referral"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    acceptPairing: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The code's secret */
                    secret: string;
                    pairingId: string;
                    organizationId: string;
                    name: string;
                    /** @description The redeeming instance's PUBLIC_BASE_URL */
                    baseUrl: string;
                    /** @description A raw Ed25519 public key, base64 */
                    publicKey: string;
                };
            };
        };
        responses: {
            /** @description Response for status 201 */
            201: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PairingAnswer"];
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    receiveFederationMessage: {
        parameters: {
            query?: never;
            header?: {
                "webhook-id"?: string;
                "webhook-timestamp"?: string;
                "webhook-signature"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description Signed as received: Standard Webhooks headers, `v1a` (Ed25519) */
        requestBody: {
            content: {
                "application/json": {
                    type: string;
                    pairingId: string;
                    referralId?: string | null;
                    payload: unknown;
                };
            };
        };
        responses: {
            /** @description The handler's answer: a request's, or an empty object */
            200: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Bad request */
            400: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationProblem"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "WWW-Authenticate"?: string;
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Payload too large */
            413: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Unsupported media type */
            415: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests */
            429: {
                headers: {
                    "RateLimit-Policy"?: string;
                    RateLimit?: string;
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
}
