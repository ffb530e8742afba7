package io.agentgateway.decision.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decision.state.WorkspaceState;
import io.agentgateway.schemas.JsonSerde;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MemoizingJsonSerdeTest {
    private static final JsonSerde<WorkspaceState> PLAIN = new JsonSerde<>(WorkspaceState.class);
    private final WorkspaceState created = WorkspaceState.absent(Duration.ofHours(1)).withKillSwitch(true, Set.of());

    @Test
    void writes_exactly_the_json_of_the_plain_serde() {
        MemoizingJsonSerde<WorkspaceState> serde = new MemoizingJsonSerde<>(WorkspaceState.class, 1 << 20);

        assertThat(serde.serialize("t", created)).isEqualTo(PLAIN.serialize("t", created));
    }

    @Test
    void bytes_it_wrote_read_back_as_the_written_value_without_parsing() {
        MemoizingJsonSerde<WorkspaceState> serde = new MemoizingJsonSerde<>(WorkspaceState.class, 1 << 20);
        byte[] bytes = serde.serialize("t", created);

        assertThat(serde.deserialize("t", bytes.clone())).isSameAs(created);
    }

    @Test
    void bytes_read_twice_are_parsed_once_and_equal_the_plain_reading() {
        MemoizingJsonSerde<WorkspaceState> serde = new MemoizingJsonSerde<>(WorkspaceState.class, 1 << 20);
        byte[] bytes = PLAIN.serialize("t", created);

        WorkspaceState first = serde.deserialize("t", bytes);
        assertThat(first).isEqualTo(PLAIN.deserialize("t", bytes));
        assertThat(serde.deserialize("t", bytes.clone())).isSameAs(first);
    }

    @Test
    void other_bytes_are_never_answered_with_a_remembered_value() {
        MemoizingJsonSerde<WorkspaceState> serde = new MemoizingJsonSerde<>(WorkspaceState.class, 1 << 20);
        serde.serialize("t", created);
        WorkspaceState other = created.withKillSwitch(false, Set.of());

        assertThat(serde.deserialize("t", PLAIN.serialize("t", other))).isEqualTo(other).isNotEqualTo(created);
    }

    @Test
    void a_caller_changing_its_array_afterwards_cannot_change_what_was_remembered() {
        MemoizingJsonSerde<WorkspaceState> serde = new MemoizingJsonSerde<>(WorkspaceState.class, 1 << 20);
        byte[] bytes = serde.serialize("t", created);
        byte[] pristine = bytes.clone();
        bytes[bytes.length - 1] = ' ';

        assertThat(serde.deserialize("t", pristine)).isSameAs(created);
    }

    @Test
    void keeps_no_more_bytes_than_its_bound_dropping_the_least_recently_used() {
        byte[] one = PLAIN.serialize("t", created);
        MemoizingJsonSerde<WorkspaceState> serde = new MemoizingJsonSerde<>(WorkspaceState.class, one.length * 2L + 1);
        WorkspaceState a = serde.deserialize("t", one);
        serde.serialize("t", created.withKillSwitch(false, Set.of()));
        serde.deserialize("t", one); // a is now the most recently used
        serde.serialize("t", created.withWorkspaceVersion(7));

        assertThat(serde.size()).isEqualTo(2);
        assertThat(serde.deserialize("t", one)).isSameAs(a);
    }

    @Test
    void null_stays_null() {
        MemoizingJsonSerde<WorkspaceState> serde = new MemoizingJsonSerde<>(WorkspaceState.class, 1 << 20);

        assertThat(serde.serialize("t", null)).isNull();
        assertThat(serde.deserialize("t", null)).isNull();
    }
}
