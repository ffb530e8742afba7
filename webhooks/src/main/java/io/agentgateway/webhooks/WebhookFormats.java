package io.agentgateway.webhooks;

import io.agentgateway.classification.ToolProfile;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.schemas.Tool;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The format of each tool that sends webhooks ({@link WebhookFormat}: header parsing, signature encoding, the
 * connections a payload names, freshness), found by the tool whose profile says it sends them. Each format names
 * its tool; a tool whose profile has webhooks but no format here, or a format for a tool without, stops the start.
 */
final class WebhookFormats {
    private final Map<Tool, WebhookFormat> byTool = new EnumMap<>(Tool.class);

    WebhookFormats(WebhookProperties properties) {
        this(List.of(new CodeHostFormat(), new IssueTrackerFormat(properties.maxAge(), properties.maxFutureSkew())));
    }

    WebhookFormats(List<WebhookFormat> formats) {
        for (WebhookFormat format : formats) {
            if (!ToolProfiles.of(format.tool()).sendsWebhooks()) {
                throw new IllegalStateException("a webhook format for " + format.tool().wire()
                        + ", whose profile sends no webhooks");
            }
            if (byTool.put(format.tool(), format) != null) {
                throw new IllegalStateException("two webhook formats for " + format.tool().wire());
            }
        }
        for (ToolProfile profile : ToolProfiles.where(ToolProfile::sendsWebhooks)) {
            if (!byTool.containsKey(profile.tool())) {
                throw new IllegalStateException("no webhook format for " + profile.tool().wire()
                        + ", whose profile sends webhooks (WebhookFormats)");
            }
        }
    }

    /** @throws IllegalArgumentException for a tool that sends no webhooks */
    WebhookFormat of(Tool tool) {
        WebhookFormat format = byTool.get(tool);
        if (format == null) {
            throw new IllegalArgumentException("the " + tool.wire() + " tool sends no webhooks");
        }
        return format;
    }
}
