import { t } from 'elysia'
import { SAVED_VIEW_NAME, VIEW_SEARCH, type SavedView } from '../../domain/members/saved-view'
import { NEED_SORTS } from '../../domain/needs/search'
import { NEED_STATUSES } from '../../domain/needs/need'
import { Body, DateTime, Named, OneOf, Text, Uuid } from './common.schemas'
import { NeedFilterQuery, NeedStatusSchema } from './needs.schemas'

// docs/api/access.md "Saved views"
export const SavedViewFiltersSchema = Named(
  'SavedViewFilters',
  t.Object(
    {
      ...NeedFilterQuery,
      status: t.Optional(
        t.Array(NeedStatusSchema, {
          minItems: 1,
          maxItems: NEED_STATUSES.length,
          uniqueItems: true,
          description: 'Needs in any of these statuses',
        }),
      ),
      q: t.Optional(t.String({ ...VIEW_SEARCH, description: 'The text searched for' })),
      sort: t.Optional(OneOf(NEED_SORTS, { description: 'The order: a field, largest or newest first with a minus' })),
    },
    {
      additionalProperties: false,
      description: 'The query parameters of `GET /api/needs` the view applies, in their shapes (`status` a list, `overdue` a boolean)',
    },
  ),
)

const ViewName = t.String({ ...SAVED_VIEW_NAME, description: "The view's name, one of the member's own once (kept trimmed)" })

export const SavedViewSchema = Named(
  'SavedView',
  t.Object(
    {
      id: Uuid,
      name: Text(SAVED_VIEW_NAME, { description: "The view's name" }),
      filters: SavedViewFiltersSchema,
      createdAt: DateTime,
      updatedAt: DateTime,
    },
    { description: "One of the caller's saved views of the inbox" },
  ),
)

export const CreateSavedViewBody = Named('NewSavedView', Body({ name: ViewName, filters: SavedViewFiltersSchema }))

export const UpdateSavedViewBody = Named(
  'SavedViewUpdate',
  Body(
    { name: t.Optional(ViewName), filters: t.Optional(SavedViewFiltersSchema) },
    'A new name, new filters (replacing the old whole), or both',
  ),
)

/** A view as JSON: whose it is stays inside (it is the caller's). */
export function savedViewView({ organizationId: _organization, memberId: _member, createdAt, updatedAt, ...view }: SavedView) {
  return { ...view, createdAt: createdAt.toISOString(), updatedAt: updatedAt.toISOString() }
}
