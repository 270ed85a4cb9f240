// A migration imported `with { type: 'text' }` is its file's text.
declare module '*.sql' {
  const text: string
  export default text
}
