package io.agentgateway.projector.readmodel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;

class CoalescingWritesTest {
    private static final SqlStatement MOVE = SqlStatement.amendingAppended("update t set v = :v where k = :k and v < :v");
    private static final SqlStatement OTHER = SqlStatement.inEventOrder("insert into u values (:k)");
    private static final MapSqlParameterSource SAME_PARAMS = new MapSqlParameterSource();
    private static final Write OTHER_WRITE = new Write(OTHER, SAME_PARAMS);

    @Test
    void aBatchRunsTheLatestWriteOfEachSeriesAndEveryOtherWrite() {
        assertThat(WriteBatches.latestOfEachSeries(List.of(move("a", 1), move("b", 5), OTHER_WRITE, move("a", 3), move("a", 2))))
                .containsExactly(move("a", 3), move("b", 5), OTHER_WRITE);
    }

    @Test
    void aBatchWithoutSeriesIsLeftAsItIs() {
        List<Write> writes = List.of(OTHER_WRITE);
        assertThat(WriteBatches.latestOfEachSeries(writes)).isSameAs(writes);
    }

    @Test
    void aPositionCommittedIsNotWrittenAgainAndTheOldestSeriesIsForgotten() {
        CommittedPositions committed = new CommittedPositions(2);
        List<Write> first = List.of(move("a", 10), OTHER_WRITE, move("b", 10));
        assertThat(committed.notYetCommitted(first)).isSameAs(first);
        committed.remember(first);
        assertThat(committed.notYetCommitted(List.of(move("a", 10), OTHER_WRITE, move("b", 9), move("a", 11))))
                .containsExactly(OTHER_WRITE, move("a", 11));
        committed.remember(List.of(move("c", 1)));
        // "b" was the series least recently written or looked up: forgotten, so written again (which changes nothing)
        assertThat(committed.notYetCommitted(List.of(move("a", 10), move("b", 10), move("c", 1))))
                .containsExactly(move("b", 10));
    }

    @Test
    void nothingIsRememberedOfABatchUntilItCommitted() {
        CommittedPositions committed = new CommittedPositions(8);
        List<Write> batch = List.of(move("a", 1));
        committed.notYetCommitted(batch);
        assertThat(committed.notYetCommitted(batch)).containsExactly(move("a", 1));
    }

    private static Write move(String key, long position) {
        return new Write(MOVE, SAME_PARAMS, new Write.Coalescing(key, position));
    }
}
