import { describe, expect, test } from 'bun:test'
import { InProcessDeferredWork } from '../../../src/adapters/system/in-process-deferred-work'
import { recordingLogger } from '../../application/mail-world'

describe('InProcessDeferredWork', () => {
  test('runs nothing on the turn that defers it, then each piece in order', async () => {
    const work = new InProcessDeferredWork(recordingLogger().logger)
    const ran: number[] = []
    work.defer('first', async () => void ran.push(1))
    work.defer('second', async () => void ran.push(2))
    await Promise.resolve()
    expect(ran).toEqual([])
    await work.settled()
    expect(ran).toEqual([1, 2])
  })

  test('a failure is logged by name, without its message, and the work after it still runs', async () => {
    const { logs, logger } = recordingLogger()
    const work = new InProcessDeferredWork(logger)
    const ran: string[] = []
    work.defer('password reset', async () => {
      throw new TypeError('insert failed for pat@example.org')
    })
    work.defer('next', async () => void ran.push('next'))
    await work.settled()
    expect(ran).toEqual(['next'])
    expect(logs).toEqual([{ level: 'error', message: 'password reset failed', fields: { error: 'TypeError' } }])
  })

  test('settled waits for work deferred by work that was running', async () => {
    const work = new InProcessDeferredWork(recordingLogger().logger)
    const ran: string[] = []
    work.defer('outer', async () => {
      ran.push('outer')
      work.defer('inner', async () => void ran.push('inner'))
    })
    await work.settled()
    expect(ran).toEqual(['outer', 'inner'])
  })
})
