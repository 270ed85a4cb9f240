import { useEffect, useState } from 'preact/hooks'

// The console's places are in the address's fragment (`#/needs/REQ-1001`): the server answers one page at
// `/`, and a place survives a reload and a lapsed session.
export interface Place {
  path: string[]
  query: URLSearchParams
}

function currentPlace(): Place {
  const [path = '', query = ''] = location.hash.replace(/^#\/?/, '').split('?')
  return { path: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(query) }
}

export function usePlace(): Place {
  const [place, setPlace] = useState(currentPlace)
  useEffect(() => {
    const onChange = () => setPlace(currentPlace())
    addEventListener('hashchange', onChange)
    return () => removeEventListener('hashchange', onChange)
  }, [])
  return place
}

export function href(path: string[], query?: Record<string, string | undefined>): string {
  const params = new URLSearchParams(Object.entries(query ?? {}).filter((entry): entry is [string, string] => Boolean(entry[1])))
  const search = params.toString()
  return `#/${path.map(encodeURIComponent).join('/')}${search ? `?${search}` : ''}`
}

export function go(path: string[], query?: Record<string, string | undefined>) {
  location.hash = href(path, query)
}
