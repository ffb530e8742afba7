package io.agentgateway.httpedge.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.httpedge.auth.ApiKeyCredential;
import io.agentgateway.httpedge.auth.ApiKeys;
import io.agentgateway.httpedge.web.TooManyRequests;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The token buckets alone; the filter, the 429 and Retry-After over HTTP are in the launcher's FairUseTest. */
class RequestRateLimitsTest {
    private final UUID workspace = UUID.randomUUID();

    private static ApiKeyCredential key(UUID workspace) {
        String key = ApiKeys.generate(workspace);
        return new ApiKeyCredential(workspace, ApiKeys.hash(key));
    }

    @Test
    void aKeyGetsItsBurstThenA429WithRetryAfter() {
        RequestRateLimits limits = new RequestRateLimits(new FairUseProperties(1, 3, 0, 0), new SimpleMeterRegistry());
        ApiKeyCredential key = key(workspace);

        for (int i = 0; i < 3; i++) {
            limits.charge(key, 1);
        }
        assertThatThrownBy(() -> limits.charge(key, 1)).isInstanceOfSatisfying(TooManyRequests.class, limited -> {
            assertThat(limited.getMessage()).isEqualTo(RequestRateLimits.KEY_LIMITED);
            assertThat(limited.retryAfterSeconds()).isBetween(1L, 2L);
        });
        // another key has a bucket of its own
        assertThatCode(() -> limits.charge(key(workspace), 3)).doesNotThrowAnyException();
    }

    @Test
    void madeUpKeysNamingAWorkspaceCannotUseUpThatWorkspacesShare() {
        RequestRateLimits limits = new RequestRateLimits(new FairUseProperties(1000, 1000, 1, 2), new SimpleMeterRegistry());
        for (int i = 0; i < 50; i++) {
            limits.charge(key(workspace), 1); // never authenticated: only their own buckets
        }
        ApiKeyCredential real = key(workspace);
        limits.authenticated(real);

        limits.charge(real, 1);
        limits.charge(real, 1);
        assertThatThrownBy(() -> limits.charge(real, 1)).hasMessage(RequestRateLimits.WORKSPACE_LIMITED);
        ApiKeyCredential sibling = key(workspace);
        limits.authenticated(sibling);
        assertThatThrownBy(() -> limits.charge(sibling, 1)).as("the workspace's share is shared by its keys")
                .hasMessage(RequestRateLimits.WORKSPACE_LIMITED);
    }

    @Test
    void aRateOfZeroIsNoLimit() {
        RequestRateLimits limits = new RequestRateLimits(new FairUseProperties(0, 0, 0, 0), new SimpleMeterRegistry());
        ApiKeyCredential key = key(workspace);
        limits.authenticated(key);

        assertThatCode(() -> {
            for (int i = 0; i < 10_000; i++) {
                limits.charge(key, 1);
            }
        }).doesNotThrowAnyException();
    }
}
