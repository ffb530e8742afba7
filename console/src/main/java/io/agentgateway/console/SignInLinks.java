package io.agentgateway.console;

import io.agentgateway.console.session.Secrets;
import io.agentgateway.console.session.ConsoleProperties;
import io.agentgateway.httpedge.auth.OidcIssuer;
import io.agentgateway.httpedge.web.IngressTables;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * One-time sign-in links: what the embedded default prints for its demo owner instead of an identity provider. A
 * link's token is 256 random bits; only its SHA-256 is stored; it works once, for {@code gateway.console.link-ttl}.
 * Blocking: call off the event loop.
 */
@Component
public class SignInLinks {
    public static final String PATH = "/signin/link";

    /** Whom a redeemed link signs in. */
    public record LinkUser(String userId, String email) {}

    private final JdbcClient jdbc;
    private final IngressTables tables;
    private final ConsoleProperties properties;
    private final OidcIssuer oidc;

    SignInLinks(JdbcClient jdbc, IngressTables tables, ConsoleProperties properties, OidcIssuer oidc) {
        this.jdbc = jdbc;
        this.tables = tables;
        this.properties = properties;
        this.oidc = oidc;
    }

    /** Whether people sign in with an OpenID provider here ({@code gateway.auth.oidc.issuer}); else links are the way. */
    public boolean providerConfigured() {
        return oidc.configured();
    }

    /** A new link's path and query ({@code /signin/link?token=...}) for {@code userId}; the token is shown once. */
    public String issue(String userId, String email) {
        Objects.requireNonNull(userId, "userId");
        tables.ready();
        String token = Secrets.random();
        Instant now = Instant.now();
        jdbc.sql("""
                insert into ingress.console_sign_in_links (token_hash, user_id, email, created_at, expires_at)
                values (:token, :user, :email, :now, :expires)
                """)
                .param("token", Secrets.hash(token)).param("user", userId).param("email", email)
                .param("now", Timestamp.from(now)).param("expires", Timestamp.from(now.plus(properties.linkTtl())))
                .update();
        return PATH + "?token=" + token;
    }

    /**
     * A new link's path and query for {@code userId}, written on {@code connection} to a gateway's database whose
     * ingress schema exists (the gateway ran there once): what the launcher's {@code signin-link} command prints, for a
     * running embedded default, without its context.
     *
     * @throws java.sql.SQLException when the database cannot be written (or has no console tables yet)
     */
    public static String issue(java.sql.Connection connection, String userId, String email, Duration ttl)
            throws java.sql.SQLException {
        Objects.requireNonNull(userId, "userId");
        String token = Secrets.random();
        Instant now = Instant.now();
        try (java.sql.PreparedStatement insert = connection.prepareStatement("""
                insert into ingress.console_sign_in_links (token_hash, user_id, email, created_at, expires_at)
                values (?, ?, ?, ?, ?)
                """)) {
            insert.setString(1, Secrets.hash(token));
            insert.setString(2, userId);
            insert.setString(3, email);
            insert.setTimestamp(4, Timestamp.from(now));
            insert.setTimestamp(5, Timestamp.from(now.plus(ttl)));
            insert.executeUpdate();
        }
        return PATH + "?token=" + token;
    }

    public Duration ttl() {
        return properties.linkTtl();
    }

    /** Spends the link: its user once, empty when unknown, used or expired (the same answer for each). */
    Optional<LinkUser> redeem(String token) {
        if (token == null || token.length() != 43) {
            return Optional.empty();
        }
        tables.ready();
        return jdbc.sql("""
                        update ingress.console_sign_in_links set used_at = now()
                         where token_hash = :token and used_at is null and expires_at > now()
                        returning user_id, email
                        """)
                .param("token", Secrets.hash(token))
                .query((rs, row) -> new LinkUser(rs.getString("user_id"), rs.getString("email")))
                .optional();
    }
}
