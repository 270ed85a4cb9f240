import { t, type AnyElysia, type TSchema } from 'elysia'

/**
 * Leaves the answers of every route of `app` unchecked
 * (docs/performance/answers-and-traps.md "Answers are checked in tests").
 * Elysia checks an answer against its route's schema unless the schema says `noValidate`; each route's
 * answers are marked in copies, so the schemas routes share, and the OpenAPI document, stay as they are.
 * Called before the app compiles its routes (on their first request). The service runs so unless
 * CHECK_ANSWERS is true, as the tests run it, so an answer its schema does not allow still fails there.
 */
export function leaveAnswersUnchecked(app: AnyElysia): void {
  for (const route of app.routes) {
    const answers = route.hooks.response as Record<string, TSchema> | undefined
    for (const status in answers) answers[status] = t.NoValidate({ ...answers[status]! })
  }
}
