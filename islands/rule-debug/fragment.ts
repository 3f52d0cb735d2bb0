// The painted tree comes from the server as an HTML fragment (debug/tree), the same markup the page was built with.
export async function fetchFragment(url: string): Promise<string> {
  const response = await fetch(url, { headers: { accept: 'text/html' }, credentials: 'same-origin' })
  if (!response.ok) throw new Error(`The tree could not be loaded (status ${response.status}).`)
  return response.text()
}
