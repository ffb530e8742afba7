package io.agentgateway.decisionstream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.state.WorkspaceConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ConfigCacheTest {
    private final WorkspaceConfig config = WorkspaceConfig.absent(Duration.ofHours(1));

    @Test
    void an_entry_answers_only_for_the_configuration_version_it_was_decoded_at() {
        ConfigCache cache = new ConfigCache(1_000);
        cache.put("ws", config, 3, 100);
        assertThat(cache.get("ws", 3)).isSameAs(config);
        assertThat(cache.get("ws", 4)).as("the store holds a newer value").isNull();
        assertThat(cache.get("other", 3)).isNull();
    }

    @Test
    void the_least_recently_used_go_first_when_the_bytes_run_out() {
        ConfigCache cache = new ConfigCache(250);
        cache.put("a", config, 1, 100);
        cache.put("b", config, 1, 100);
        cache.get("a", 1);
        cache.put("c", config, 1, 100);
        assertThat(cache.get("b", 1)).isNull();
        assertThat(cache.get("a", 1)).isNotNull();
        assertThat(cache.get("c", 1)).isNotNull();
        cache.put("huge", config, 1, 1_000);
        assertThat(cache.get("huge", 1)).as("bigger than the whole budget: not kept").isNull();
        assertThat(cache.size()).isEqualTo(2);
    }
}
