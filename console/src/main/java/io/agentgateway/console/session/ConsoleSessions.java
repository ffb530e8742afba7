package io.agentgateway.console.session;

import io.agentgateway.httpedge.web.IngressTables;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The console's sessions, in the ingress's own schema (every replica sees them, a restart keeps them). The browser
 * holds a random id in an {@code HttpOnly} cookie; only its SHA-256 is stored. A session ends at sign-out, after
 * {@code idle-timeout} unused, or {@code absolute-timeout} after its sign-in. Blocking: call off the event loop.
 */
@Component
public class ConsoleSessions {
    /** How often a used session's {@code last_seen_at} is written: a page's every request need not write. */
    static final Duration TOUCH_EVERY = Duration.ofSeconds(30);

    private final JdbcClient jdbc;
    private final IngressTables tables;
    private final ConsoleProperties properties;
    private final Clock clock;

    @org.springframework.beans.factory.annotation.Autowired
    ConsoleSessions(JdbcClient jdbc, IngressTables tables, ConsoleProperties properties) {
        this(jdbc, tables, properties, Clock.systemUTC());
    }

    ConsoleSessions(JdbcClient jdbc, IngressTables tables, ConsoleProperties properties, Clock clock) {
        this.jdbc = jdbc;
        this.tables = tables;
        this.properties = properties;
        this.clock = clock;
    }

    /** A new session; returns the cookie's id (shown to the browser once, never stored). */
    public String create(String userId, String email, String via) {
        tables.ready();
        String id = Secrets.random();
        Timestamp now = Timestamp.from(clock.instant());
        jdbc.sql("""
                insert into ingress.console_sessions (id_hash, user_id, email, signed_in_via, csrf_token, created_at,
                    authenticated_at, last_seen_at)
                values (:id, :user, :email, :via, :csrf, :now, :now, :now)
                """)
                .param("id", Secrets.hash(id)).param("user", userId).param("email", email).param("via", via)
                .param("csrf", Secrets.random()).param("now", now)
                .update();
        return id;
    }

    /** The live session of a cookie's id, touched; empty when unknown, ended, idle too long or too old. */
    public Optional<ConsoleSession> find(String cookieId) {
        if (cookieId == null || cookieId.length() != 43) {
            return Optional.empty();
        }
        tables.ready();
        Instant now = clock.instant();
        Optional<ConsoleSession> found = jdbc.sql("""
                        select id_hash, user_id, email, signed_in_via, csrf_token, created_at, authenticated_at, last_seen_at
                          from ingress.console_sessions where id_hash = :id and ended_at is null
                        """)
                .param("id", Secrets.hash(cookieId))
                .query((rs, row) -> new ConsoleSession(rs.getString("id_hash"), rs.getString("user_id"),
                        rs.getString("email"), rs.getString("signed_in_via"), rs.getString("csrf_token"),
                        rs.getTimestamp("created_at").toInstant(), rs.getTimestamp("authenticated_at").toInstant(),
                        rs.getTimestamp("last_seen_at").toInstant()))
                .optional()
                .filter(s -> now.isBefore(s.lastSeenAt().plus(properties.idleTimeout()))
                        && now.isBefore(s.createdAt().plus(properties.absoluteTimeout())));
        found.filter(s -> !now.isBefore(s.lastSeenAt().plus(TOUCH_EVERY))).ifPresent(s -> jdbc.sql(
                        "update ingress.console_sessions set last_seen_at = :now where id_hash = :id")
                .param("now", Timestamp.from(now)).param("id", s.idHash()).update());
        return found;
    }

    /** Signs the session out (the cookie's id is worthless from now on, on every replica). */
    public void end(String idHash) {
        tables.ready();
        jdbc.sql("update ingress.console_sessions set ended_at = :now where id_hash = :id and ended_at is null")
                .param("now", Timestamp.from(clock.instant())).param("id", idHash).update();
    }

    /** The user proved who they are again (re-authentication at the provider). */
    public void reauthenticated(String idHash) {
        tables.ready();
        jdbc.sql("update ingress.console_sessions set authenticated_at = :now where id_hash = :id and ended_at is null")
                .param("now", Timestamp.from(clock.instant())).param("id", idHash).update();
    }

    /** Whether the session's last proof of identity is recent enough for the kill switch. */
    public boolean recentlyAuthenticated(ConsoleSession session) {
        return clock.instant().isBefore(session.authenticatedAt().plus(properties.reauthAfter()));
    }

    /** Deletes what can never be used again (ended or timed-out sessions, spent or expired links and flows). */
    public void purge() {
        tables.ready();
        Timestamp now = Timestamp.from(clock.instant());
        jdbc.sql("""
                delete from ingress.console_sessions
                 where ended_at is not null or last_seen_at < :idle or created_at < :absolute
                """)
                .param("idle", Timestamp.from(clock.instant().minus(properties.idleTimeout())))
                .param("absolute", Timestamp.from(clock.instant().minus(properties.absoluteTimeout())))
                .update();
        jdbc.sql("delete from ingress.console_sign_in_flows where expires_at < :now").param("now", now).update();
        jdbc.sql("delete from ingress.console_sign_in_links where expires_at < :now").param("now", now).update();
    }
}
