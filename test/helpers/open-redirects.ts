// Open-redirect payloads (issue 22) and the judge of a Location header: every target below, used as a redirect's
// `next` (or any other target a request can name), must leave the browser on the app's own origin.

/** The host the payloads try to reach; nothing listens there. */
export const EVIL = 'evil.example'

/** What a request field or parameter decodes to (senders encode it for the query or form as a browser would). */
export const OPEN_REDIRECT_PAYLOADS: readonly string[] = [
  // Protocol-relative, with extra slashes.
  `//${EVIL}/x`, `///${EVIL}/x`, `////${EVIL}/x`, `/////${EVIL}/x`,
  // Backslashes, which browsers read as slashes in http(s) URLs.
  `/\\${EVIL}/x`, `\\\\${EVIL}/x`, `\\/${EVIL}/x`, `/\\/${EVIL}/x`, `\\/\\/${EVIL}/x`, `/\\\\${EVIL}/x`,
  // Tabs, line breaks and other controls, which browsers drop or trim (the finding: /<TAB>/host).
  `/\t/${EVIL}/x`, `/\t/localhost:18081/x`, `/\n/${EVIL}/x`, `/\r/${EVIL}/x`, `/\r\n/${EVIL}/x`, `\t//${EVIL}/x`,
  `/\r\n/x`, `/\u000b/${EVIL}/x`, `/\u000c/${EVIL}/x`, `/\u001f/${EVIL}/x`, `\u0000//${EVIL}/x`, `/\u0000/${EVIL}/x`,
  `/\r\nSet-Cookie: sid=attacker`, `/x\r\nLocation: https://${EVIL}/`,
  // Leading spaces and other leading whitespace.
  ` //${EVIL}/x`, `  https://${EVIL}/x`, `\u00a0//${EVIL}/x`, `\u3000//${EVIL}/x`,
  // Encoded forms: once for the parser, and forms a second decoding would turn into slashes.
  `/%2F${EVIL}/x`, `%2F%2F${EVIL}/x`, `/%2F%2F${EVIL}/x`, `/%5C${EVIL}/x`, `%5C%5C${EVIL}/x`, `/%09/${EVIL}/x`,
  `/%0D%0A/${EVIL}/x`, `%0D%0A//${EVIL}/x`, `/%252F%252F${EVIL}/x`, `//%65vil.example/x`,
  // Dot segments that collapse into a protocol-relative path.
  `/.//${EVIL}/x`, `/..//${EVIL}/x`, `/x/..//${EVIL}/x`, `/%2e%2e//${EVIL}/x`, `/./\\${EVIL}/x`,
  // Absolute URLs, in any case, with and without their slashes.
  `https://${EVIL}/x`, `http://${EVIL}/x`, `HtTpS://${EVIL}/x`, `https:${EVIL}/x`, `https:/${EVIL}/x`, `https:\\\\${EVIL}/x`,
  `http:/\\${EVIL}/x`, `ftp://${EVIL}/x`, `https://localhost:3000.${EVIL}/x`, `https://localhost:3000@${EVIL}/x`,
  `//localhost:3000@${EVIL}/x`, `//${EVIL}\\@localhost:3000/x`, `//${EVIL}%2F@localhost:3000/x`, `@${EVIL}/x`,
  `//${EVIL}\u3002example/x`, `//127.0.0.1:18081/x`, `//[::1]:18081/x`,
  // Script and data schemes.
  'javascript:alert(document.domain)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', 'java\tscript:alert(1)',
  'javascript://%0Aalert(1)', 'data:text/html,<script>alert(1)</script>', 'DATA:text/html;base64,PHNjcmlwdD4=', 'vbscript:msgbox(1)',
  // Unicode look-alikes of the slash (division slash, fullwidth solidus, fraction slash) and a fullwidth dot.
  `/\u2215${EVIL}/x`, `\u2215\u2215${EVIL}/x`, `/\uff0f${EVIL}/x`, `\uff0f\uff0f${EVIL}/x`, `/\u2044${EVIL}/x`, `//${EVIL}\uff0ex`,
  // Far too long to be one of the app's paths.
  `/${'a'.repeat(5000)}`,
]

/** Tab, LF and CR anywhere, and C0 controls or spaces at either end: what a browser drops before resolving a URL. */
function browserNormalised(location: string): string {
  return location.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/\\/g, '/')
}

/**
 * Why this Location would take a browser away from `origin` (or could not be sent), or null when it stays: it must
 * resolve to the same origin, and its browser-normalised form must be neither protocol-relative nor carry a scheme.
 */
export function offOriginProblem(location: string, origin: string): string | null {
  if (/[^\x21-\x7e]/.test(location)) return `carries characters a header should not: ${JSON.stringify(location)}`
  let resolved: URL
  try {
    resolved = new URL(location, origin)
  } catch {
    return `does not parse: ${JSON.stringify(location)}`
  }
  if (resolved.origin !== origin) return `resolves to ${resolved.origin}`
  const normalised = browserNormalised(location)
  if (normalised.startsWith('//')) return `is protocol-relative once normalised: ${JSON.stringify(normalised)}`
  if (/^[a-z][a-z\d+.-]*:/i.test(normalised)) return `names a scheme: ${JSON.stringify(normalised)}`
  return null
}
