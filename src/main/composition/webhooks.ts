import { HttpWebhookSender, StandardWebhookSecrets } from '../../adapters/messaging/http-webhook-sender'
import { OutboundHostPolicy } from '../../adapters/messaging/smtp-host-policy'
import { AuditTrail } from '../../application/audit/audit-trail'
import { Outbox } from '../../application/messaging/outbox'
import { ListWebhookDeliveries } from '../../application/webhooks/list-webhook-deliveries'
import { WebhookDelivery } from '../../application/webhooks/webhook-delivery'
import {
  CreateWebhookEndpoint,
  DeleteWebhookEndpoint,
  GetWebhookEndpoint,
  ListWebhookEndpoints,
  UpdateWebhookEndpoint,
} from '../../application/webhooks/webhook-endpoints'
import { WebhookEvents } from '../../application/webhooks/webhook-events'
import { LiveStreams } from '../../application/live/live-streams'
import type { Persistence } from '../../application/ports/persistence'
import { area } from './area'
import { PORTS } from './ports'

const { repositories, unitOfWork, clock, webhookHosts } = PORTS

export const webhooks = area('webhooks', ({ config, bind, service }) => {
  const hosts = new OutboundHostPolicy({ allowedHosts: config.webhookAllowedHosts, blockPrivate: config.webhookBlockPrivateHosts })
  const sender = new HttpWebhookSender(hosts)
  bind(PORTS.webhookSender).toConstantValue(sender)
  bind(webhookHosts).toConstantValue(sender)
  bind(PORTS.webhookSecrets).toConstantValue(new StandardWebhookSecrets())
  service(WebhookEvents, [Outbox, clock])
  // Each database brings the live stream its events its own way (a poll, or LISTEN on PostgreSQL).
  bind(PORTS.liveEventFeed).toResolvedValue((persistence: Persistence) => persistence.liveEventFeed(), [PORTS.persistence])
  service(WebhookDelivery, [repositories, PORTS.secretBox, PORTS.webhookSender, clock])
  return {
    create: service(CreateWebhookEndpoint, [unitOfWork, PORTS.secretBox, PORTS.webhookSecrets, webhookHosts, clock, PORTS.ids, AuditTrail]),
    list: service(ListWebhookEndpoints, [repositories]),
    get: service(GetWebhookEndpoint, [repositories]),
    update: service(UpdateWebhookEndpoint, [unitOfWork, webhookHosts, clock, AuditTrail]),
    delete: service(DeleteWebhookEndpoint, [unitOfWork, AuditTrail]),
    listDeliveries: service(ListWebhookDeliveries, [repositories]),
    stream: service(LiveStreams, [repositories, PORTS.liveEventFeed, PORTS.accessTokens, clock, PORTS.logger]),
  }
})
