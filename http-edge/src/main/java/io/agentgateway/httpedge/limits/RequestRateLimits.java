package io.agentgateway.httpedge.limits;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.agentgateway.httpedge.auth.ApiKeyCredential;
import io.agentgateway.httpedge.web.TooManyRequests;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.springframework.stereotype.Component;

/**
 * The token buckets of {@link FairUseProperties}: one per API key (by its hash) and one per workspace.
 *
 * <p>Every request with a well-formed key is charged to its key's bucket, whether the key is real or not
 * (a made-up key only empties a bucket nobody else uses). The workspace's bucket is charged only for keys
 * this instance has seen succeed ({@link #authenticated}): anyone can write a well-formed key naming a
 * workspace, and such requests must not be able to use up that workspace's share and lock its real agents
 * out. Buckets of keys and workspaces not seen for ten minutes are dropped (a full bucket is the same as a
 * new one), and at most {@value #MAX_ENTRIES} of each are held.
 */
@Component
public class RequestRateLimits {
    static final String KEY_LIMITED = "Too many requests for this API key; retry later";
    static final String WORKSPACE_LIMITED = "Too many requests for this workspace; retry later";
    private static final int MAX_ENTRIES = 100_000;
    private static final Duration IDLE = Duration.ofMinutes(10);

    private final FairUseProperties limits;
    private final Cache<String, Bucket> keys = bounded();
    private final Cache<UUID, Bucket> workspaces = bounded();
    private final Cache<String, Boolean> authenticatedKeys = Caffeine.newBuilder()
            .maximumSize(MAX_ENTRIES).expireAfterWrite(Duration.ofHours(1)).build();
    private final Counter keyRefusals;
    private final Counter workspaceRefusals;

    public RequestRateLimits(FairUseProperties limits, MeterRegistry registry) {
        this.limits = limits;
        this.keyRefusals = Counter.builder("gateway.limits.refused").tag("limit", "key_rate").register(registry);
        this.workspaceRefusals = Counter.builder("gateway.limits.refused").tag("limit", "workspace_rate").register(registry);
    }

    private static <K> Cache<K, Bucket> bounded() {
        return Caffeine.newBuilder().maximumSize(MAX_ENTRIES).expireAfterAccess(IDLE).build();
    }

    /**
     * Takes {@code requests} tokens for a caller.
     *
     * @throws TooManyRequests when the key's or (for an authenticated key) the workspace's bucket has too few
     */
    public void charge(ApiKeyCredential key, int requests) {
        if (requests < 1) {
            return;
        }
        if (limits.keyRate() > 0) {
            ConsumptionProbe probe = keys.get(key.keyHash(), k -> bucket(limits.keyRate(), limits.keyBurst()))
                    .tryConsumeAndReturnRemaining(requests);
            if (!probe.isConsumed()) {
                keyRefusals.increment();
                throw new TooManyRequests(KEY_LIMITED, seconds(probe.getNanosToWaitForRefill()));
            }
        }
        if (limits.workspaceRate() > 0 && authenticatedKeys.getIfPresent(key.keyHash()) != null) {
            ConsumptionProbe probe = workspaces.get(key.workspaceId(), w -> bucket(limits.workspaceRate(), limits.workspaceBurst()))
                    .tryConsumeAndReturnRemaining(requests);
            if (!probe.isConsumed()) {
                Bucket keyBucket = keys.getIfPresent(key.keyHash());
                if (keyBucket != null) {
                    keyBucket.addTokens(requests); // not served: the key's own share is not spent
                }
                workspaceRefusals.increment();
                throw new TooManyRequests(WORKSPACE_LIMITED, seconds(probe.getNanosToWaitForRefill()));
            }
        }
    }

    /** The key got an answer only a real key gets: from now on its requests count for its workspace too. */
    public void authenticated(ApiKeyCredential key) {
        authenticatedKeys.put(key.keyHash(), Boolean.TRUE);
    }

    private static Bucket bucket(int rate, int burst) {
        return Bucket.builder()
                .addLimit(Bandwidth.builder().capacity(burst).refillGreedy(rate, Duration.ofSeconds(1)).build())
                .build();
    }

    private static long seconds(long nanos) {
        return Math.max(1, TimeUnit.NANOSECONDS.toSeconds(nanos + TimeUnit.SECONDS.toNanos(1) - 1));
    }
}
