package io.agentgateway.benchmark.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GatewayJarProcessTest {
    /** What the launcher prints on a first start (DemoWorkspaceSeeder, GatewayLauncher), since the first builds. */
    private static final String FIRST_START = """
            
            === Demo workspace created (shown once; save these) ===
            Gateway:       http://127.0.0.1:41234
            Workspace id:  0b7e0c1e-8f5e-4c39-9e43-2f1f2d0b9a11
            Owner JWT:     eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkZW1vLW93bmVyIn0.c2ln   (user demo-owner, valid 30 days)
            Agent API key: agk_live_3q2f9c   (scopes evaluate, mcp, proxy)
            =======================================================
            
            Agent action gateway running at http://127.0.0.1:41234 (Ctrl-C to stop)
            """;

    @Test
    void readsTheSeededWorkspaceAndTheAddressFromTheFirstStartsOutput() {
        assertThat(GatewayJarProcess.find(GatewayJarProcess.RUNNING, FIRST_START)).contains("http://127.0.0.1:41234");
        assertThat(GatewayJarProcess.find(GatewayJarProcess.WORKSPACE, FIRST_START))
                .contains("0b7e0c1e-8f5e-4c39-9e43-2f1f2d0b9a11");
        assertThat(GatewayJarProcess.find(GatewayJarProcess.API_KEY, FIRST_START)).contains("agk_live_3q2f9c");
        assertThat(GatewayJarProcess.find(GatewayJarProcess.OWNER_JWT, FIRST_START))
                .contains("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkZW1vLW93bmVyIn0.c2ln");
    }
}
