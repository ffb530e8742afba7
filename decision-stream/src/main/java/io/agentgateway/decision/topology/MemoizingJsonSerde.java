package io.agentgateway.decision.topology;

import io.agentgateway.schemas.JsonSerde;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The {@code workspace-state} store's serde: the same JSON on disk and in the changelog as
 * {@link JsonSerde}, but bytes that were written or read before are not parsed again. Every command
 * reads its workspace's state and most (evaluations) never change it, while parsing grows with the
 * workspace (policies, keys, members, open approvals): without this an evaluation would cost more the
 * bigger the workspace is.
 *
 * <p>Keyed by the bytes themselves, not by workspace id, so it can never answer with a value other
 * than what the store holds, whoever wrote the store. Values must be immutable (the state records
 * are), since every reader gets the same instance. Bounded by the bytes it keeps, least recently used
 * out first; synchronized because one serde instance serves the tasks of every stream thread.
 */
final class MemoizingJsonSerde<T> implements Serde<T>, Serializer<T>, Deserializer<T> {
    static final long DEFAULT_MAX_BYTES = 32L * 1024 * 1024;

    private final JsonSerde<T> json;
    private final long maxBytes;
    private final LinkedHashMap<ByteBuffer, T> decoded = new LinkedHashMap<>(64, 0.75f, true);
    private long keptBytes;

    MemoizingJsonSerde(Class<T> type, long maxBytes) {
        this.json = new JsonSerde<>(type);
        this.maxBytes = maxBytes;
    }

    @Override
    public byte[] serialize(String topic, T data) {
        byte[] bytes = json.serialize(topic, data);
        if (bytes != null) {
            remember(bytes, data);
        }
        return bytes;
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        synchronized (decoded) {
            T known = decoded.get(ByteBuffer.wrap(data));
            if (known != null) {
                return known;
            }
        }
        T value = json.deserialize(topic, data);
        remember(data, value);
        return value;
    }

    private void remember(byte[] bytes, T value) {
        if (bytes.length > maxBytes) {
            return;
        }
        // a copy: the caller's array goes on to RocksDB and the producer, and must not be able to change a key
        ByteBuffer key = ByteBuffer.wrap(bytes.clone());
        synchronized (decoded) {
            if (decoded.put(key, value) == null) {
                keptBytes += bytes.length;
            }
            Iterator<Map.Entry<ByteBuffer, T>> oldest = decoded.entrySet().iterator();
            while (keptBytes > maxBytes && oldest.hasNext()) {
                keptBytes -= oldest.next().getKey().capacity();
                oldest.remove();
            }
        }
    }

    int size() {
        synchronized (decoded) {
            return decoded.size();
        }
    }

    @Override
    public Serializer<T> serializer() {
        return this;
    }

    @Override
    public Deserializer<T> deserializer() {
        return this;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        // nothing to configure: the mapper is the contract's own
    }

    @Override
    public void close() {
        // the cache goes with the serde; nothing external to release
    }
}
