import { createServer } from 'node:net'
import { join } from 'node:path'

const CLUSTER_SCRIPT = join(import.meta.dir, '..', '..', 'scripts', 'pg-test-cluster.sh')

/** A TCP port nobody listens on right now, on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/**
 * A PostgreSQL cluster of the test's own (scripts/pg-test-cluster.sh on its own directory and port): stopping
 * the shared one would break the other tests.
 */
export class ThrowawayCluster {
  private constructor(
    private readonly dir: string,
    private readonly port: string,
    readonly url: string,
  ) {}

  static async start(): Promise<ThrowawayCluster> {
    const { dir, port } = await place()
    return new ThrowawayCluster(dir, port, await run(['start'], dir, port))
  }

  /** A hot standby of this cluster (pg_basebackup -R): it follows this one and refuses writes until promoted. */
  async standby(): Promise<ThrowawayCluster> {
    const { dir, port } = await place()
    return new ThrowawayCluster(dir, port, await run(['standby', this.port], dir, port))
  }

  /** A standby made a primary. */
  async promote(): Promise<void> {
    await run(['promote'], this.dir, this.port)
  }

  /** This cluster's URL with `url`'s database: the same database on this server. */
  database(url: string): string {
    const on = new URL(url)
    on.port = this.port
    return on.toString()
  }

  /** Stops the server (`pg_ctl stop -m fast`: sessions are ended, transactions rolled back) and keeps its data. */
  async pause(): Promise<void> {
    await run(['pause'], this.dir, this.port)
  }

  async resume(): Promise<void> {
    await run(['resume'], this.dir, this.port)
  }

  async remove(): Promise<void> {
    await run(['stop'], this.dir, this.port)
  }
}

async function place(): Promise<{ dir: string; port: string }> {
  return { dir: `/tmp/intake-pg-${crypto.randomUUID().slice(0, 8)}`, port: String(await freePort()) }
}

/** Runs the script without blocking the test's event loop: clients go on sending while the server stops. */
async function run(args: string[], dir: string, port: string): Promise<string> {
  const child = Bun.spawn(['bash', CLUSTER_SCRIPT, ...args], {
    env: { ...process.env, PG_TEST_DIR: dir, PG_TEST_PORT: port },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [code, stdout, stderr] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()])
  if (code !== 0) throw new Error(`pg-test-cluster.sh ${args.join(' ')} failed (${code}): ${stderr}`)
  return stdout.trim()
}
