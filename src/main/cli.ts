#!/usr/bin/env bun
import type { Container } from 'inversify'
import { parseArgs } from 'node:util'
import { DomainError } from '../domain/errors'
import type { MailLanguage } from '../domain/members/notifications'
import { BackupError } from '../adapters/persistence/sqlite/sqlite-backup'
import { errorText } from '../adapters/persistence/shared/database-errors'
import { bufferedStderr } from '../adapters/system/buffered-output'
import { bootstrapFirstOrganization } from './bootstrap'
import { backup, restore } from './backup-commands'
import { ConfigError, loadConfig, loadDatabaseConfig } from './config'
import { createContainer, PORTS, useCasesOf } from './container'
import { ImportFileError, importCommandOf, runImport, summaryOf } from './import-command'
import { bringUpToDate, PortInUseError, startServer, startWorker } from './server'
import { versionLine } from './version'

const USAGE = `Usage: intake <command>

Commands:
  serve                          Run the HTTP API and the outbox worker (migrations run first)
  worker                         Run only the outbox worker (with SERVE_RUNS_WORKER=false on the servers)
  migrate                        Apply database migrations and exit
  org create --name N --slug S [--short-code C] --admin-email E --admin-password P [--language en|es] [--json]
                                 Create an organization, its default partner (named in its language) and a confirmed org_admin
  org set-phone-number --org SLUG --phone +15551234567
                                 Set the SMS number texts come from and arrive at
  member set-password --email E --password P [--org SLUG]
                                 Set a member's password and confirm the member
  import constituents|needs --org SLUG --file F [--dry-run]
                                 Bring a CSV file of the export's columns in (docs/api/exports-import.md "Import");
                                 exit code 1 when a row was refused
  backup --to FILE [--force]     Copy the database while it is in use (SQLite; pg_dump on PostgreSQL)
  restore --from FILE            Put a backup in place of the database (SQLite; no intake may be running)
  --version                      Print the version

Configuration comes from the environment: see README.md.`

async function main(argv: string[]): Promise<number> {
  const [command, sub, ...rest] = argv
  // Commands that must not generate secrets, as loading the whole configuration does on a first start.
  switch (command) {
    case '--version':
      console.log(versionLine())
      return 0
    case 'backup':
      return backup(loadDatabaseConfig(), argv.slice(1))
    case 'restore':
      return restore(loadDatabaseConfig(), argv.slice(1))
  }
  const config = loadConfig()
  switch (command) {
    case 'serve':
      return serve(config)
    case 'migrate':
      return withDatabase(config, async () => {
        console.log('Migrations applied.')
        return 0
      })
    case 'worker':
      return work(config)
    case 'org':
      if (sub === 'create') return createOrganization(config, rest)
      if (sub === 'set-phone-number') return setPhoneNumber(config, rest)
      break
    case 'member':
      if (sub !== 'set-password') break
      return setPassword(config, rest)
    case 'import':
      return importFile(config, argv.slice(1))
    case undefined:
    case 'help':
    case '--help':
      console.log(USAGE)
      return command === undefined ? 1 : 0
  }
  console.error(`Unknown command: ${argv.join(' ')}\n\n${USAGE}`)
  return 1
}

async function serve(config: ReturnType<typeof loadConfig>): Promise<number> {
  const server = await startServer(config, {}, bootstrapFirstOrganization)
  const created = server.prepared
  const logger = server.container.get(PORTS.logger)
  logger.info('listening', { url: server.url, database: config.database.kind })
  // The start's log lines (a copy made before migrating, leftovers removed) are out before the address.
  bufferedStderr().flush()
  if (created) {
    const password = created.generatedPassword ?? '<INTAKE_ADMIN_PASSWORD>'
    console.log(
      [
        '',
        `Created organization "${created.organizationSlug}" with admin ${created.adminEmail}.`,
        ...(created.generatedPassword ? [`Admin password (shown once): ${created.generatedPassword}`] : []),
        `Staff console: open ${server.url}/ in a browser and log in as ${created.adminEmail} with that password.`,
        'Or over the API:',
        `  curl -s -X POST ${server.url}/api/auth/login -H 'content-type: application/json' \\`,
        `    -d '${JSON.stringify({ email: created.adminEmail, password })}'`,
        `API docs: ${server.url}/api/docs`,
        '',
      ].join('\n'),
    )
  }
  console.log(`Intake service listening on ${server.url} (staff console at ${server.url}/, API docs at ${server.url}/api/docs)`)
  return untilSignal(logger, () => server.stop())
}

async function work(config: ReturnType<typeof loadConfig>): Promise<number> {
  const container = createContainer(config)
  const logger = container.get(PORTS.logger)
  await bringUpToDate(container)
  const worker = startWorker(container, config)
  logger.info('outbox worker running', { database: config.database.kind })
  bufferedStderr().flush()
  return untilSignal(logger, async () => {
    await worker.stop()
    await container.get(PORTS.persistence).close()
  })
}

/**
 * Runs until SIGTERM or SIGINT, then `stop`s gracefully: no new requests or claims, what is in flight
 * finishes (no message is left half-sent), the database closes. A second signal ends at once.
 */
function untilSignal(
  logger: { info(message: string, fields?: Record<string, unknown>): void },
  stop: () => Promise<void>,
): Promise<number> {
  return new Promise((resolve) => {
    const shutdown = (signal: string) => {
      logger.info('shutting down: finishing what is in flight', { signal })
      process.once(signal, () => process.exit(1))
      stop().then(
        () => resolve(0),
        () => resolve(1),
      )
    }
    process.once('SIGTERM', () => shutdown('SIGTERM'))
    process.once('SIGINT', () => shutdown('SIGINT'))
  })
}

async function setPhoneNumber(config: ReturnType<typeof loadConfig>, args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { org: { type: 'string' }, phone: { type: 'string' } } })
  const { org, phone } = values
  if (!org || !phone) {
    console.error(`Missing: --org and --phone are required\n\n${USAGE}`)
    return 1
  }
  return withDatabase(config, async (container) => {
    await useCasesOf(container).operations.setOrganizationPhoneNumber.execute(org, phone)
    console.log(`Texts of ${org} now come from and arrive at ${phone}.`)
    return 0
  })
}

async function createOrganization(config: ReturnType<typeof loadConfig>, args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      name: { type: 'string' },
      slug: { type: 'string' },
      'short-code': { type: 'string' },
      'admin-email': { type: 'string' },
      'admin-password': { type: 'string' },
      language: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  })
  const missing = ['name', 'slug', 'admin-email', 'admin-password'].filter((k) => !values[k as keyof typeof values])
  if (missing.length > 0) {
    console.error(`Missing: ${missing.map((m) => `--${m}`).join(', ')}\n\n${USAGE}`)
    return 1
  }
  return withDatabase(config, async (container) => {
    const created = await useCasesOf(container).operations.createOrganization.execute({
      name: values.name!,
      slug: values.slug!,
      ...(values['short-code'] ? { shortCode: values['short-code'] } : {}),
      adminEmail: values['admin-email']!,
      adminPassword: values['admin-password']!,
      // Checked by the use case: anything but en or es is refused, said as --language.
      ...(values.language ? { language: values.language as MailLanguage } : {}),
    })
    console.log(
      values.json ? JSON.stringify(created) : `Created organization ${values.slug} (${created.organizationId}); its admin can log in now.`,
    )
    return 0
  })
}

async function setPassword(config: ReturnType<typeof loadConfig>, args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { email: { type: 'string' }, password: { type: 'string' }, org: { type: 'string' } },
  })
  const { email, password } = values
  if (!email || !password) {
    console.error(`Missing: --email and --password are required\n\n${USAGE}`)
    return 1
  }
  return withDatabase(config, async (container) => {
    await useCasesOf(container).operations.setMemberPassword.execute({
      email,
      password,
      ...(values.org ? { organizationSlug: values.org } : {}),
    })
    console.log(`Password set for ${values.email}; the member is confirmed and can log in.`)
    return 0
  })
}

async function importFile(config: ReturnType<typeof loadConfig>, args: string[]): Promise<number> {
  const command = importCommandOf(args)
  if (typeof command === 'string') {
    console.error(`${command}\n\n${USAGE}`)
    return 1
  }
  return withDatabase(config, async (container) => {
    const progress = { isTTY: Boolean(process.stderr.isTTY), write: (text: string) => void process.stderr.write(text) }
    const report = await runImport(useCasesOf(container).operations.importFile, command, progress)
    console.log(summaryOf(command, report))
    return report.rows === report.created + report.skipped ? 0 : 1
  })
}

/** A failure the operator can fix, said in one line; anything else with its stack. */
function explain(error: unknown): string {
  if (error instanceof ConfigError) return `Configuration error: ${error.message}`
  if (error instanceof PortInUseError || error instanceof BackupError || error instanceof ImportFileError) return error.message
  // A file the operator must see to (its rights, a full disk, a missing folder): the line names it.
  if (typeof (error as { syscall?: unknown }).syscall === 'string') return (error as Error).message
  if (String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')) return `${(error as Error).message}\n\n${USAGE}`
  if (error instanceof DomainError) {
    const details = 'errors' in error ? (error.errors as Array<{ path: string; message: string }>) : []
    return [error.message, ...details.map((d) => `  ${flagOf(d.path)}: ${d.message}`)].join('\n')
  }
  // A database's error by its statement and code: drizzle's message holds the values the statement was given.
  return errorText(error)
}

/** How a command fails: told in words, then exit code 1. */
function fail(error: unknown): never {
  console.error(explain(error))
  process.exit(1)
}

// A crash ends the process as before, but told like any failure: Bun's own report prints every field of
// the error, drizzle's parameters (a person's name, phone, address) among them.
process.on('uncaughtException', fail)
process.on('unhandledRejection', fail)

main(process.argv.slice(2)).then((code) => process.exit(code), fail)

/** `/adminEmail` → `--admin-email`: field paths named as the flags the operator typed. */
function flagOf(path: string): string {
  return `--${path.replace(/^\//, '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`
}

/** Runs an operator's command over a database brought up to date (a fresh one works too), then closes it. */
async function withDatabase(config: ReturnType<typeof loadConfig>, command: (container: Container) => Promise<number>): Promise<number> {
  const container = createContainer(config)
  try {
    await bringUpToDate(container)
    return await command(container)
  } finally {
    await container.get(PORTS.persistence).close()
  }
}
