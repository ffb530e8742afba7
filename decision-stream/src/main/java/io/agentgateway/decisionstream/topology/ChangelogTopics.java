package io.agentgateway.decisionstream.topology;

import io.agentgateway.decisioncore.core.DecisionSettings;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.config.TopicConfig;

/**
 * The configuration of every store's changelog topic, set here rather than left to the broker's
 * defaults (Kafka Streams applies it when it creates the topic; an existing topic keeps what it has).
 *
 * <ul>
 *   <li>Keyed stores (configuration, counters, keys, approvals, the expiry index): {@code compact}, so a
 *       restore reads about one record per live key. {@code segment.ms} one hour: compaction only cleans
 *       closed segments, and with the default of seven days a quiet store's changelog would replay a
 *       week of changes. {@code max.message.bytes} 1 MiB stated explicitly, so a broker with a lower
 *       default cannot refuse a configuration value the limits allow (at most 768 KiB by
 *       {@code gateway.decision.limits.configuration-bytes}; every other record is under 4 KiB).</li>
 *   <li>Window stores (processed commands, webhook deliveries): {@code compact,delete} with
 *       {@code retention.ms} the store's own retention plus ten minutes (Kafka Streams would add a day:
 *       {@code windowstore.changelog.additional.retention.ms}), and segments of a quarter of it (between
 *       ten minutes and a day), so the topic holds about what the store holds. The ten minutes cover a
 *       broker clock ahead of the acceptedAt the records are stamped with.</li>
 * </ul>
 */
final class ChangelogTopics {
    static final String MAX_MESSAGE_BYTES = Integer.toString(1024 * 1024);
    static final Duration COMPACTED_SEGMENT = Duration.ofHours(1);
    static final Duration WINDOW_MARGIN = Duration.ofMinutes(10);

    private ChangelogTopics() {}

    static Map<String, String> keyed() {
        return Map.of(
                TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                TopicConfig.SEGMENT_MS_CONFIG, Long.toString(COMPACTED_SEGMENT.toMillis()),
                TopicConfig.MAX_MESSAGE_BYTES_CONFIG, MAX_MESSAGE_BYTES);
    }

    static Map<String, String> windowed(Duration retention) {
        long segment = Math.min(Duration.ofDays(1).toMillis(),
                Math.max(Duration.ofMinutes(10).toMillis(), retention.toMillis() / 4));
        return Map.of(
                TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT + "," + TopicConfig.CLEANUP_POLICY_DELETE,
                TopicConfig.RETENTION_MS_CONFIG, Long.toString(retention.plus(WINDOW_MARGIN).toMillis()),
                TopicConfig.SEGMENT_MS_CONFIG, Long.toString(segment),
                TopicConfig.MAX_MESSAGE_BYTES_CONFIG, MAX_MESSAGE_BYTES);
    }

    static Map<String, String> processedCommands(DecisionSettings settings) {
        return windowed(settings.dedupeRetention());
    }
}
