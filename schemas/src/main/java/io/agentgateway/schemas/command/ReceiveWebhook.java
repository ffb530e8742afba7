package io.agentgateway.schemas.command;

import io.agentgateway.schemas.Tool;
import tools.jackson.databind.JsonNode;

/**
 * One inbound webhook delivery whose signature the ingress verified against this workspace's
 * connection (or, keyed by {@link #NO_WORKSPACE}, one that matched no workspace). The decision stream
 * drops a delivery id it has seen before for the same workspace and source, evaluates the rest
 * against the workspace's policies (source {@code webhook}) and records it.
 *
 * @param tool         the sender: code_host or issue_tracker
 * @param deliveryId   the sender's delivery id (X-Code-Host-Delivery / Issue-Tracker-Delivery), the dedupe key
 * @param eventKind    the event kind as the sender names it, e.g. {@code pull_request}, {@code Issue}
 * @param eventAction  the payload's {@code action}, e.g. {@code opened}, {@code create}; null when it has none
 * @param sender       who caused the event upstream (the code host's sender login, the issue tracker's actor), or null
 * @param resourceType what the event is about, e.g. {@code repository}, {@code team}; null when unknown
 * @param resourceId   which one, e.g. {@code acme/api}; null when unknown
 * @param payload      the verified payload as parsed (the stream keeps only an excerpt)
 * @param connectionVersion the version of the workspace's connection whose webhook secret verified the
 *                     signature (and whose config names the payload's repository, organization or team);
 *                     when it is not the current one the stream decides nothing and answers {@code stale}
 *                     with the current connection, to verify with again. Null: no check (a writer from
 *                     before versions, or {@link #NO_WORKSPACE})
 * @param bodyDigest   {@code sha256:<hex>} of the raw signed body: the second dedupe key (a captured delivery
 *                     sent again under a new delivery id is a duplicate too); null from writers before it
 * @param payloadExcerpt for an unmatched delivery ({@link #NO_WORKSPACE}), which is kept only as an excerpt:
 *                     the start of the compact payload, cut at the ingress's limit, and {@code payload} null;
 *                     null otherwise
 * @param payloadBytes with {@code payloadExcerpt}: the size of the whole compact payload
 */
public record ReceiveWebhook(
        Tool tool,
        String deliveryId,
        String eventKind,
        String eventAction,
        String sender,
        String resourceType,
        String resourceId,
        JsonNode payload,
        Long connectionVersion,
        String bodyDigest,
        String payloadExcerpt,
        Integer payloadBytes) implements Command {

    /** Without a connection version (an unmatched delivery, or a writer from before versions). */
    public ReceiveWebhook(Tool tool, String deliveryId, String eventKind, String eventAction, String sender,
                          String resourceType, String resourceId, JsonNode payload) {
        this(tool, deliveryId, eventKind, eventAction, sender, resourceType, resourceId, payload, null);
    }

    /** Without a body digest (a writer from before it). */
    public ReceiveWebhook(Tool tool, String deliveryId, String eventKind, String eventAction, String sender,
                          String resourceType, String resourceId, JsonNode payload, Long connectionVersion) {
        this(tool, deliveryId, eventKind, eventAction, sender, resourceType, resourceId, payload, connectionVersion, null,
                null, null);
    }

    /** The same delivery naming the connection version it was verified with. */
    public ReceiveWebhook verifiedWith(long version) {
        return new ReceiveWebhook(tool, deliveryId, eventKind, eventAction, sender, resourceType, resourceId, payload, version,
                bodyDigest, payloadExcerpt, payloadBytes);
    }

    /** The same delivery with the digest of its raw signed body ({@code sha256:<hex>}). */
    public ReceiveWebhook withBodyDigest(String digest) {
        return new ReceiveWebhook(tool, deliveryId, eventKind, eventAction, sender, resourceType, resourceId, payload,
                connectionVersion, digest, payloadExcerpt, payloadBytes);
    }

    /**
     * The same delivery kept as an excerpt only (an unmatched one): the payload replaced by its start and size,
     * the texts taken from it cut to {@code maxTextChars}.
     */
    public ReceiveWebhook asExcerpt(String excerpt, int wholeBytes, int maxTextChars) {
        return new ReceiveWebhook(tool, cut(deliveryId, maxTextChars), cut(eventKind, maxTextChars), cut(eventAction, maxTextChars),
                cut(sender, maxTextChars), cut(resourceType, maxTextChars), cut(resourceId, maxTextChars), null, connectionVersion,
                bodyDigest, excerpt, wholeBytes);
    }

    private static String cut(String text, int maxChars) {
        return text == null || text.length() <= maxChars ? text : text.substring(0, maxChars);
    }

    /**
     * The commands-topic key of deliveries that matched no workspace (spec 6 rule 3): the nil UUID,
     * which no workspace id ever is (they are random UUIDs). Using a key of its own gives unmatched
     * deliveries the same log order and dedupe as matched ones without touching any real workspace.
     */
    public static final String NO_WORKSPACE = "00000000-0000-0000-0000-000000000000";
}
