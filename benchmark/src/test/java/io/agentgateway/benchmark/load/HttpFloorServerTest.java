package io.agentgateway.benchmark.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.benchmark.measure.LatencyRecorder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class HttpFloorServerTest {

    @Test
    void answersTheLoadClientsPostsWith200OverKeptAliveConnections() throws Exception {
        byte[] body = "{\"tool\":\"chat\",\"action\":\"message.send\"}".getBytes(StandardCharsets.UTF_8);
        try (HttpFloorServer floor = new HttpFloorServer();
             NettyLoadClient client = new NettyLoadClient(floor.baseUrl(), "key", 4)) {
            LoadRunner.Call call = client.post("/functions/v1/evaluate-action", body);

            assertThat(call.get().get()).isTrue();
            LatencyRecorder latency = LoadRunner.openLoop(call, 200, Duration.ofSeconds(1));
            assertThat(latency.count()).isEqualTo(200);
            assertThat(latency.failures()).isZero();
        }
    }
}
