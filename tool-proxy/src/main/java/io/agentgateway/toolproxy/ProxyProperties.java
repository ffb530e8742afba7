package io.agentgateway.toolproxy;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.http.HttpStatus;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.proxy.*}; {@code gateway.proxy.max-body-bytes}, which the HTTP edge applies too, is
 * {@code edge.ProxyRequestProperties}.
 *
 * @param upstreamTimeout  how long the upstream may take to answer with its status and headers (then 504)
 * @param connectTimeout   how long connecting to the upstream may take (then 502)
 * @param defaultBaseUrls  the upstream base URL per tool for connections that name none, over the default of the tool's
 *                         profile (the real code host's and issue tracker's APIs)
 * @param heldStatus       the HTTP status of a call held for approval: 403 by default, so that no client takes it
 *                         for a success (octokit and the Linear SDK throw on any status of 400 or more) and no
 *                         retry policy sends it again (which would open a second approval): octokit's retry
 *                         plugin, urllib3 and the code host's clients all treat 403 as final. The body says
 *                         {@code decision: "require_approval"} and carries the approval id and status URL. 202
 *                         (which SDKs take for a success: docs/decisions/0008-held-calls-answered-403.md) or
 *                         another registered 4xx may be configured; nothing else
 * @param documentationUrl the {@code documentation_url} of the REST-dialect decision bodies (a page for agent
 *                         developers on what the gateway's answers mean), or none
 */
@ConfigurationProperties("gateway.proxy")
public record ProxyProperties(
        @DefaultValue("PT30S") Duration upstreamTimeout,
        @DefaultValue("PT5S") Duration connectTimeout,
        Map<String, URI> defaultBaseUrls,
        @DefaultValue("403") int heldStatus,
        String documentationUrl) {

    public ProxyProperties {
        if (upstreamTimeout.isZero() || upstreamTimeout.isNegative()) {
            throw new IllegalArgumentException("gateway.proxy.upstream-timeout must be positive");
        }
        if (connectTimeout.isZero() || connectTimeout.isNegative()) {
            throw new IllegalArgumentException("gateway.proxy.connect-timeout must be positive");
        }
        if (heldStatus != 202 && (heldStatus < 400 || heldStatus > 499 || HttpStatus.resolve(heldStatus) == null)) {
            throw new IllegalArgumentException("gateway.proxy.held-status must be 202 or a 4xx status, not " + heldStatus);
        }
        if (documentationUrl != null && documentationUrl.isBlank()) {
            documentationUrl = null;
        }
        defaultBaseUrls = defaultBaseUrls == null ? Map.of() : Map.copyOf(defaultBaseUrls);
    }
}
