package io.agentgateway.decisionstream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class EntryKeysTest {

    @Test
    void expiry_keys_sort_by_time_in_the_stores_byte_order_and_read_back() {
        long[] times = {5, 1_000, 999, 1_767_225_600_000L, 42};
        List<byte[]> keys = new ArrayList<>();
        for (long t : times) {
            keys.add(EntryKeys.expiry(t, EntryKeys.APPROVAL, "ws-" + t, "id-" + t).getBytes(StandardCharsets.UTF_8));
        }
        keys.sort(Arrays::compareUnsigned);
        assertThat(keys).extracting(k -> EntryKeys.parseExpiry(new String(k, StandardCharsets.UTF_8)).epochMillis())
                .containsExactly(5L, 42L, 999L, 1_000L, 1_767_225_600_000L);
        EntryKeys.Expiry parsed = EntryKeys.parseExpiry(EntryKeys.expiry(7, EntryKeys.API_KEY, "w", "h"));
        assertThat(parsed).isEqualTo(new EntryKeys.Expiry(7, EntryKeys.API_KEY, "w", "h"));
    }

    @Test
    void the_upper_bound_of_a_sweep_takes_every_key_of_its_millisecond_and_none_later() {
        String bound = EntryKeys.expiryUpTo(1_000);
        assertThat(EntryKeys.expiry(1_000, EntryKeys.APPROVAL, "zzzz", "zzzz")).isLessThan(bound);
        assertThat(EntryKeys.expiry(1_001, EntryKeys.APPROVAL, "0", "0")).isGreaterThan(bound);
        assertThat(EntryKeys.INDEX_START).isLessThanOrEqualTo(EntryKeys.expiry(0, EntryKeys.APPROVAL, "a", "b"));
    }

    @Test
    void entries_of_one_workspace_never_share_a_prefix_with_another() {
        assertThat(EntryKeys.entry("ws-1", "x")).doesNotStartWith(EntryKeys.entry("ws-1", "") + "x\n");
        assertThat(EntryKeys.entry("ws-10", "a")).doesNotStartWith(EntryKeys.entry("ws-1", ""));
    }
}
