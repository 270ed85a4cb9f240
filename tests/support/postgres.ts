import postgres from 'postgres'

/** The throwaway cluster `.ci/run` starts (scripts/pg-test-cluster.sh), when there is one. */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL

let announced = false

/** Whether PostgreSQL tests run here; says once, in one line, when they are skipped. */
export function postgresAvailable(): boolean {
  if (!TEST_POSTGRES_URL && !announced) {
    announced = true
    console.log('PostgreSQL tests skipped: TEST_POSTGRES_URL is not set (bash scripts/pg-test-cluster.sh start prints one)')
  }
  return TEST_POSTGRES_URL !== undefined
}

/** A fresh, empty database on the test cluster, and a way to drop it. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = postgres(TEST_POSTGRES_URL!, { max: 1, onnotice: () => {} })
  const name = `intake_test_${crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`
  await admin.unsafe(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(TEST_POSTGRES_URL!)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const dropper = postgres(TEST_POSTGRES_URL!, { max: 1, onnotice: () => {} })
      await dropper.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await dropper.end()
    },
  }
}
