import { useEffect, useState } from 'preact/hooks'
import { client, type Partner, type Profile, type Service } from '../shared/api'
import { LIST_LIMIT, MAX_LENGTH } from '../../api-constants'
import { everyPage, readPartners } from '../shared/data'
import { t } from '../shared/i18n'
import { OutcomeLine, useOutcome } from '../shared/outcome'
import { Table } from '../shared/table'

const STATUSES = ['active', 'inactive', 'defunct', 'temporarily closed'] as const

const readServices = () =>
  everyPage((page) => client.GET('/api/services', { params: { query: { includeArchived: true, page, limit: LIST_LIMIT } } }))

/**
 * The services partners offer (docs/console.md "Services"): the organization's admin adds and archives any; a partner admin
 * its own partner's only, as the API allows.
 */
export function ServicesScreen({ profile }: { profile: Profile }) {
  const [services, setServices] = useState<Service[]>()
  const [partners, setPartners] = useState<Partner[]>([])
  const managed = partners.filter((partner) => !partner.isArchived && (!profile.partnerId || partner.id === profile.partnerId))
  const nameOf = (id: string) => partners.find((partner) => partner.id === id)?.name ?? '—'
  async function load() {
    await read(readServices, setServices)
  }
  const { outcome, read, run } = useOutcome(load)
  useEffect(() => {
    void load()
    void read(readPartners, setPartners)
  }, [])
  const archive = (service: Service) =>
    run(
      () => client.PUT('/api/services/{id}', { params: { path: { id: service.id } }, body: { isArchived: !service.isArchived } }),
      service.isArchived ? t.serviceRestored : t.serviceArchived,
    )

  return (
    <section aria-labelledby="services-title">
      <h2 id="services-title">{t.adminSections.services}</h2>
      <OutcomeLine outcome={outcome} />
      {!services ? (
        !outcome?.error && <p role="status">{t.loading}</p>
      ) : (
        <Table
          label={t.adminSections.services}
          columns={[t.name, t.partner, t.serviceStatus, t.acceptingReferrals, t.state]}
          actions={t.rowActions}
        >
          {services.map((service) => (
            <tr key={service.id}>
              <td>{service.name}</td>
              <td>{nameOf(service.partnerId)}</td>
              <td>{t.serviceStatuses[service.status]}</td>
              <td>{service.acceptingReferrals ? t.yes : t.no}</td>
              <td>{service.isArchived ? t.archived : t.active}</td>
              <td>
                {managed.some((partner) => partner.id === service.partnerId) && (
                  <button type="button" class="secondary small" onClick={() => void archive(service)}>
                    {service.isArchived ? t.restoreNamed(service.name) : t.archiveNamed(service.name)}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
      {managed.length > 0 && (
        <form
          class="panel"
          aria-label={t.addService}
          onSubmit={(event) => {
            event.preventDefault()
            const element = event.currentTarget
            const form = new FormData(element)
            const body = {
              partnerId: String(form.get('partnerId')),
              name: String(form.get('name')).trim(),
              status: String(form.get('status')) as Service['status'],
              acceptingReferrals: form.get('acceptingReferrals') === 'on',
            }
            void run(() => client.POST('/api/services', { body }), t.serviceAdded(body.name)).then((saved) => saved && element.reset())
          }}
        >
          <h3>{t.addService}</h3>
          <label for="new-service-partner">{t.partner}</label>
          <select id="new-service-partner" name="partnerId" required>
            {managed.map((partner) => (
              <option key={partner.id} value={partner.id}>
                {partner.name}
              </option>
            ))}
          </select>
          <label for="new-service-name">{t.name}</label>
          <input id="new-service-name" name="name" maxLength={MAX_LENGTH.NewService.name} required />
          <label for="new-service-status">{t.serviceStatus}</label>
          <select id="new-service-status" name="status">
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {t.serviceStatuses[status]}
              </option>
            ))}
          </select>
          <div class="check">
            <input id="new-service-accepting" name="acceptingReferrals" type="checkbox" defaultChecked />
            <label for="new-service-accepting">{t.acceptingReferrals}</label>
          </div>
          <button type="submit">{t.addService}</button>
        </form>
      )}
    </section>
  )
}
