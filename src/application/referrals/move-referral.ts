import type { Actor } from '../../domain/auth/actor'
import { ConflictError, InvalidError } from '../../domain/errors'
import { REFERRAL_CONSENT_REVOKED } from '../../domain/referrals/messages'
import {
  mayMove,
  REFERRAL_NOTE,
  REFERRAL_OUTCOMES,
  type Referral,
  type ReferralDirection,
  type ReferralMove,
  type ReferralOutcome,
  type ReferralStatus,
} from '../../domain/referrals/referral'
import { FieldChecks } from '../../domain/shared/fields'
import type { AuditTrail } from '../audit/audit-trail'
import { authorize } from '../auth/authorize'
import type { FederationOutbox } from '../federation/federation-outbox'
import type { Clock } from '../ports/clock'
import type { Repositories } from '../ports/repositories'
import type { UnitOfWork } from '../ports/unit-of-work'
import { findVisibleReferral, referralView, type ReferralView } from './read-referrals'
import { organizationName, partnerOf, type ReferralJournal } from './referral-journal'
import type { ReferralMessages } from './send-referral'

/** The moves members make (docs/referrals.md "Moves"): the status each leads to, and the side that makes it. */
export const REFERRAL_MOVES = {
  accept: { status: 'accepted', side: 'in' },
  decline: { status: 'rejected', side: 'in' },
  start: { status: 'in-progress', side: 'in' },
  complete: { status: 'completed', side: 'in' },
  cancel: { status: 'cancelled', side: 'out' },
} as const satisfies Record<string, { status: ReferralStatus; side: ReferralDirection }>
export type ReferralMoveName = keyof typeof REFERRAL_MOVES

export interface MoveInput {
  reason?: unknown
  outcome?: unknown
  note?: unknown
}

/** The side's permission: the receiver's members respond, the sender's cancel, revoke and send again. */
const PERMISSION = { in: 'referrals:respond', out: 'referrals:send' } as const

function moveErrors(move: ReferralMoveName, input: MoveInput) {
  const checks = new FieldChecks()
  if (move === 'decline') checks.text('/reason', input.reason, { ...REFERRAL_NOTE, minLength: 1 }, { trim: true })
  if (move === 'complete')
    checks.oneOf('/outcome', input.outcome, REFERRAL_OUTCOMES).text('/note', input.note, REFERRAL_NOTE, { presence: 'optional' })
  return checks.errors
}

/** Accept, decline, start, complete (the receiver's members) or cancel (the sender's): recorded here, told to the other side. */
export class MoveReferral {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly journal: ReferralJournal,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, id: string, name: ReferralMoveName, input: MoveInput = {}): Promise<ReferralView> {
    const { status, side } = REFERRAL_MOVES[name]
    authorize(actor, PERMISSION[side])
    InvalidError.throwIfAny(moveErrors(name, input), 'The move is not valid')
    return this.unitOfWork.run(async (r) => {
      const referral = await findVisibleReferral(r, actor, id)
      if (referral.direction !== side)
        throw new ConflictError(
          side === 'in' ? 'Only the receiving organization moves a referral so' : 'Only the sender cancels a referral',
        )
      if (!mayMove(referral.status, status)) throw new ConflictError(`A referral that is ${referral.status} cannot become ${status}`)
      const note = (name === 'decline' ? input.reason : input.note) as string | undefined
      const move: ReferralMove = {
        status,
        at: this.clock.now(),
        by: { organization: await organizationName(r, actor.organizationId), member: actor.memberId },
        ...(note ? { note } : {}),
      }
      const outcome = name === 'complete' ? { outcome: input.outcome as ReferralOutcome } : {}
      const moved = await this.journal.moved(r, referral, move, actor, outcome)
      await this.journal.tell(r, moved, move)
      return referralView(r, moved)
    })
  }
}

/** `POST /api/referrals/{id}/revoke-consent`, at the sender, at any time: the receiver erases what it took. */
export class RevokeReferralConsent {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly channel: FederationOutbox,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  async execute(actor: Actor, id: string): Promise<ReferralView> {
    authorize(actor, 'referrals:send')
    return this.unitOfWork.run(async (r) => {
      const referral = await findVisibleReferral(r, actor, id)
      if (referral.direction !== 'out') throw new ConflictError('Only the sender revokes the consent it obtained')
      if (referral.consentRevokedAt) return referralView(r, referral)
      const revoked: Referral = { ...referral, consentRevokedAt: this.clock.now(), updatedAt: this.clock.now() }
      await r.referrals.update(revoked)
      await revokeAt(r, this.channel, revoked)
      await this.audit.record(r, actor, { action: 'update', recordType: 'referral', recordId: id, fields: ['consent'] })
      return referralView(r, revoked)
    })
  }
}

async function revokeAt(r: Repositories, channel: FederationOutbox, referral: Referral): Promise<void> {
  await channel.send(r, await partnerOf(r, referral), { type: REFERRAL_CONSENT_REVOKED, referralId: referral.id, payload: {} })
}

/**
 * `POST /api/referrals/{id}/send-again`: a referral whose message ran out of tries is sent again as a new message,
 * for its present state (the request, without personal details once consent has lapsed; the last move; a revocation).
 */
export class SendReferralAgain {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly messages: ReferralMessages,
    private readonly journal: ReferralJournal,
    private readonly channel: FederationOutbox,
  ) {}

  async execute(actor: Actor, id: string): Promise<ReferralView> {
    return this.unitOfWork.run(async (r) => {
      const referral = await findVisibleReferral(r, actor, id)
      authorize(actor, PERMISSION[referral.direction])
      const { notDelivered: _was, ...again } = referral
      await r.referrals.update(again)
      if (referral.direction === 'out') await this.messages.request(r, again, await partnerOf(r, again))
      const last = again.history.at(-1)
      const ownMove = (again.status === 'cancelled') === (referral.direction === 'out') && again.status !== 'requested'
      if (last && ownMove) await this.journal.tell(r, again, last)
      if (again.consentRevokedAt && referral.direction === 'out') await revokeAt(r, this.channel, again)
      return referralView(r, again)
    })
  }
}
