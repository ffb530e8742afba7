package io.agentgateway.projector.readmodel;

import io.agentgateway.schemas.event.EvidenceSeal;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.UUID;
import java.util.function.Function;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.support.AbstractSqlTypeValue;

/**
 * Builds the named, explicitly typed arguments of one {@link Write}. Every value carries its SQL type:
 * a null without one makes Spring ask the driver for parameter metadata, a round trip per row.
 * uuid and jsonb values travel as text and are cast in the SQL ({@code :id::uuid}), after they were
 * checked here, so a malformed id fails while planning the event, not inside the batch.
 */
final class SqlParams {
    private final MapSqlParameterSource source = new MapSqlParameterSource();

    MapSqlParameterSource source() {
        return source;
    }

    /** @throws IllegalArgumentException if the value is not a UUID */
    SqlParams uuid(String name, String value) {
        source.addValue(name, value == null ? null : UUID.fromString(value).toString(), Types.VARCHAR);
        return this;
    }

    SqlParams text(String name, String value) {
        source.addValue(name, withoutNul(value), Types.VARCHAR);
        return this;
    }

    /** The wire name of an enum constant of the contract, or null. */
    <E> SqlParams wire(String name, E value, Function<E, String> wireName) {
        return text(name, value == null ? null : wireName.apply(value));
    }

    /** A JSON document for a {@code :name::jsonb} parameter. */
    SqlParams json(String name, String json) {
        source.addValue(name, json, Types.VARCHAR);
        return this;
    }

    SqlParams timestamp(String name, Instant value) {
        source.addValue(name, value == null ? null : OffsetDateTime.ofInstant(value, ZoneOffset.UTC), Types.TIMESTAMP_WITH_TIMEZONE);
        return this;
    }

    SqlParams bigint(String name, Long value) {
        source.addValue(name, value, Types.BIGINT);
        return this;
    }

    SqlParams integer(String name, Integer value) {
        source.addValue(name, value, Types.INTEGER);
        return this;
    }

    SqlParams bool(String name, boolean value) {
        source.addValue(name, value, Types.BOOLEAN);
        return this;
    }

    /**
     * An audit row's place in its workspace's Merkle log and the payload's digests the log sealed instead of the payload
     * (all null for an event from before the log, or sealing switched off).
     */
    SqlParams sealed(EvidenceSeal seal) {
        return bigint("sequence", seal == null ? null : seal.sequence())
                .text("leaf_hash", seal == null ? null : seal.leafHash())
                .text("payload_sha256", seal == null ? null : seal.payloadSha256())
                .text("payload_excerpt_sha256", seal == null ? null : seal.payloadExcerptSha256());
    }

    SqlParams textArray(String name, Collection<String> values) {
        String[] array = values.stream().map(SqlParams::withoutNul).toArray(String[]::new);
        source.addValue(name, new AbstractSqlTypeValue() {
            @Override
            protected Object createTypeValue(Connection connection, int sqlType, String typeName) throws SQLException {
                return connection.createArrayOf("text", array);
            }
        }, Types.ARRAY);
        return this;
    }

    /**
     * PostgreSQL text cannot hold U+0000; an audit row with a replaced character is better than an
     * audit row the database refuses.
     */
    private static String withoutNul(String value) {
        return value == null || value.indexOf('\u0000') < 0 ? value : value.replace('\u0000', '\uFFFD');
    }
}
