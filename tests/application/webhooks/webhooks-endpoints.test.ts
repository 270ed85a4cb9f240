import { beforeEach, describe, expect, test } from 'bun:test'
import type { WebhookEventType } from '../../../src/domain/webhooks/webhook'
import { PORTS } from '../../../src/main/container'
import type { World } from '../../support/world'
import { createWebhookWorld, failureOf, webhookHelpers } from './webhooks-support'

// docs/events.md, through the use cases on the in-memory adapters: an endpoint's secret is shown once and
// stored sealed, only an org_admin adds endpoints, and the addresses they may point at are the operator's to limit.

let world: World
beforeEach(async () => {
  ;({ world } = await createWebhookWorld())
})
const { subscribe } = webhookHelpers(() => world)

describe('endpoints', () => {
  test('the secret is whsec_ and 32 random bytes, answered once and stored sealed', async () => {
    const created = await subscribe()
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    const stored = await world.repositories.webhookEndpoints.findById(world.organizationId, created.id)
    expect(stored!.sealedSecret).not.toContain(created.secret.slice(6))
    expect(world.container.get(PORTS.secretBox).open(stored!.sealedSecret)).toBe(created.secret)
    expect(await world.useCases.webhooks.get.execute(world.admin, created.id)).not.toHaveProperty('secret')
    expect((await subscribe()).secret).not.toBe(created.secret)
  })

  test('org_admin only, and at most 20 per organization', async () => {
    const staff = await world.member('staff')
    expect(
      await failureOf(world.useCases.webhooks.create.execute(staff, { url: 'https://hooks.example.org/x', events: ['need.created'] })),
    ).toMatchObject({ kind: 'forbidden' })
    for (let i = 0; i < 20; i++) await subscribe(['need.created'])
    expect(await failureOf(subscribe(['need.created']))).toMatchObject({ kind: 'conflict' })
  })

  test('the same rules as HTTP when called directly', async () => {
    const failure = await failureOf(
      world.useCases.webhooks.create.execute(world.admin, { url: 'javascript:alert(1)', events: ['need.deleted' as WebhookEventType] }),
    )
    expect(failure).toMatchObject({ kind: 'invalid' })
    expect((failure as { errors: Array<{ path: string }> }).errors.map((e) => e.path).sort()).toEqual(['/events', '/url'])
  })

  test('WEBHOOK_BLOCK_PRIVATE_HOSTS keeps endpoints off loopback, private and link-local addresses; WEBHOOK_ALLOWED_HOSTS names the only hosts', async () => {
    ;({ world } = await createWebhookWorld({ WEBHOOK_BLOCK_PRIVATE_HOSTS: 'true' }))
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'http://10.0.0.7/hook',
      'http://169.254.169.254/latest',
      'http://[::1]/hook',
      'http://[::ffff:192.168.1.1]/',
    ]) {
      expect({ url, failure: await failureOf(subscribe(['need.created'], url)) }).toMatchObject({
        url,
        failure: { kind: 'invalid', errors: [{ path: '/url' }] },
      })
    }
    expect((await subscribe(['need.created'], 'https://93.184.216.34/hook')).enabled).toBe(true)

    ;({ world } = await createWebhookWorld({ WEBHOOK_ALLOWED_HOSTS: 'hooks.example.org' }))
    expect(await failureOf(subscribe(['need.created'], 'https://elsewhere.example.org/hook'))).toMatchObject({ kind: 'invalid' })
    expect((await subscribe(['need.created'], 'https://hooks.example.org/hook')).url).toBe('https://hooks.example.org/hook')
  })
})
