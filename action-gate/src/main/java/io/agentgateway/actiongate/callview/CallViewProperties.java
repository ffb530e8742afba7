package io.agentgateway.actiongate.callview;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.approvals.call-view.*}: what reviewers are shown of a held call.
 *
 * @param maxBytes each text part of a call view (body excerpt, GraphQL document, variables, MCP arguments, file
 *                 content) is cut to this many UTF-8 bytes (256 to 65,536)
 */
@ConfigurationProperties("gateway.approvals.call-view")
public record CallViewProperties(@DefaultValue("4096") int maxBytes) {
    public static final int MIN_BYTES = 256;
    public static final int MAX_BYTES = 65_536;

    public CallViewProperties {
        if (maxBytes < MIN_BYTES || maxBytes > MAX_BYTES) {
            throw new IllegalArgumentException("gateway.approvals.call-view.max-bytes must be between " + MIN_BYTES
                    + " and " + MAX_BYTES);
        }
    }
}
