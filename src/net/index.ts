// src/net: the one outbound HTTP module (DESIGN "External APIs"). Everything that calls a URL someone typed goes
// through createOutbound(): SSRF checks, pinned addresses, redirects re-checked, size and time caps.
export {
  createOutbound, OutboundError, FORBIDDEN_REQUEST_HEADERS, MAX_REDIRECTS, DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS,
  type Connector, type Outbound, type OutboundErrorCode, type OutboundOptions, type OutboundRequest, type OutboundResponse,
  type ResolvedAddress, type Resolver,
} from './outbound.ts'
export { AllowList, parseAllowList, type AllowEntry } from './allow-list.ts'
export { refusedRange, isIpLiteral } from './addresses.ts'
