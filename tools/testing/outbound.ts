import {
  createOutboundHttp,
  everyNetwork,
  type OutboundFiles,
  type OutboundHttp,
  type Transport,
} from '#platform/outbound/outbound-http.js';

/**
 * The way out a client under test uses, as a development worker has it (OUTBOUND_ALLOW_PRIVATE_NETWORKS):
 * any address, fakes on 127.0.0.1 included. With a `transport` (a scripted `fetch`), no network at all;
 * the URL, redirect and size rules still apply.
 */
export function localOutbound(
  transport?: Transport | typeof fetch,
  maxResponseBytes = 8 * 1024 * 1024,
): OutboundHttp & OutboundFiles {
  return createOutboundHttp({
    allowedNetworks: everyNetwork,
    httpsOnly: false,
    maxResponseBytes,
    ...(transport ? { transport: transport as Transport } : {}),
  });
}
