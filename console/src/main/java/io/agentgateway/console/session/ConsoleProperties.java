package io.agentgateway.console.session;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code gateway.console.*}: the console's sessions and sign-in.
 *
 * @param idleTimeout      a session nobody used for this long is over
 * @param absoluteTimeout  a session is over this long after its sign-in, used or not
 * @param reauthAfter      the kill switch asks for a sign-in younger than this (re-authentication at the provider)
 * @param linkTtl          a one-time sign-in link works this long
 * @param signInTtl        time between the redirect to the provider and its callback
 * @param secureCookies    {@code true}: cookies are {@code Secure} (and named {@code __Host-}); {@code false}: never;
 *                         unset: when the request (or {@code gateway.public-base-url}) is https
 * @param liveStale        the live feed counts as broken when it has not polled the events topic for this long
 */
@ConfigurationProperties("gateway.console")
public record ConsoleProperties(@DefaultValue("PT30M") Duration idleTimeout,
                                @DefaultValue("PT12H") Duration absoluteTimeout,
                                @DefaultValue("PT5M") Duration reauthAfter,
                                @DefaultValue("PT15M") Duration linkTtl,
                                @DefaultValue("PT10M") Duration signInTtl,
                                Boolean secureCookies,
                                @DefaultValue("PT10S") Duration liveStale) {

    public ConsoleProperties {
        for (Duration d : new Duration[] {idleTimeout, absoluteTimeout, reauthAfter, linkTtl, signInTtl, liveStale}) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("gateway.console durations must be positive");
            }
        }
    }
}
