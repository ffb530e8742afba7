package io.agentgateway.gatewayclient;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AnswerWritesTest {
    private final List<String> done = new ArrayList<>();

    @Test
    void what_is_held_runs_once_when_the_answer_is_written_and_never_as_lost() {
        AnswerWrites writes = new AnswerWrites();
        writes.hold(() -> done.add("released a"), () -> done.add("reported a"));
        writes.hold(() -> done.add("released b"), () -> done.add("reported b"));
        assertThat(done).isEmpty();
        writes.written();
        writes.lost();
        writes.written();
        assertThat(done).containsExactly("released a", "released b");
    }

    @Test
    void a_lost_answer_reports_what_it_held() {
        AnswerWrites writes = new AnswerWrites();
        writes.hold(() -> done.add("released"), () -> done.add("reported"));
        writes.lost();
        assertThat(done).containsExactly("reported");
    }

    @Test
    void a_reply_handed_on_after_the_exchange_ended_follows_how_it_ended() {
        AnswerWrites written = new AnswerWrites();
        written.written();
        written.hold(() -> done.add("released"), () -> done.add("reported"));
        AnswerWrites lost = new AnswerWrites();
        lost.lost();
        lost.hold(() -> done.add("released late"), () -> done.add("reported late"));
        assertThat(done).containsExactly("released", "reported late");
    }
}
