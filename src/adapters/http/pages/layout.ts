/** The pages' one stylesheet, served by the service at STYLESHEET_PATH: readable on a phone, no outside URL. */
export const STYLESHEET_PATH = '/assets/pages.css'
export const STYLESHEET = `*{box-sizing:border-box}
body{margin:0;font:1.0625rem/1.5 system-ui,sans-serif;color:#1a1a1a;background:#f6f6f4}
main{max-width:34rem;margin:0 auto;padding:1.5rem 1rem}
h1{font-size:1.5rem;line-height:1.25}
label{display:block;font-weight:600;margin-top:1rem}
.hint{margin:.25rem 0;color:#4a4a4a;font-size:.95rem}
.error{margin:.25rem 0;color:#a00000;font-weight:600}
input{display:block;width:100%;font:inherit;padding:.6rem;border:2px solid #555;border-radius:4px;background:#fff}
input[aria-invalid=true]{border-color:#a00000}
button{margin-top:1.25rem;font:inherit;font-weight:600;padding:.7rem 1.2rem;border:0;border-radius:4px;background:#0b5394;color:#fff;cursor:pointer}
:focus-visible{outline:3px solid #e69500;outline-offset:2px}
`

/**
 * Styles from the service only, no script at all, forms posting to the service only, never framed.
 */
export const PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Every text put in a page goes through this: names, errors, anything a person or the database wrote. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!)
}

/** A whole page around `body` (already escaped HTML). */
export function page(lang: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`
}
