package io.agentgateway.gatewayclient;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The evaluations this ingress has published and not yet answered, in a memory-mapped file, so that the next
 * start of this replica after a crash (kill -9, OOM, a JVM abort) can tell the decision stream that their
 * decisions reached nobody, so that every undelivered decision is marked. A process that dies leaves the
 * file's pages in the kernel's page cache, where the restarted process reads them; no write waits for a disk.
 *
 * <p>An entry is written before the evaluation is published and cleared once its answer was written to the caller's
 * connection ({@link AnswerWrites}: evaluate-action), or where no exchange says when that is, when its reply is handed
 * on. An entry found at the next start is an evaluation whose answer had not been written. Clearing it when the reply
 * was handed to the handler, before the answer was mapped, encoded and written, left every decision of a process
 * killed in between unmarked (the fault suite's ingress kill, one in a run); the window left now is the opposite one,
 * between the write and the clearing, microseconds on the same thread. An entry whose give-up report is still being
 * sent ({@link CallerGaveUpReports}) stays until the broker acknowledged it, so a crash then reports it again.
 *
 * <p>The page cache survives a process, not the machine: after a reboot the file holds whatever the kernel last
 * wrote back, cleared entries included, so it is trusted only when it was written since this boot (Linux's
 * {@code /proc/sys/kernel/random/boot_id}); otherwise, or without a boot id (not Linux), its entries are discarded
 * with a WARN and stay unmarked. One process per file: the file is locked, and a second process using it is refused
 * at start.
 *
 * <p>Layout: a 4 KiB header (magic, slot size and count, the boot id it was written under), then fixed slots of
 * {@value #SLOT_BYTES} bytes: {@code [int marker][int crc32][short length][payload]}, the payload being acceptedAt
 * (epoch microseconds) and the command id, workspace id and correlation id (UTF-8, each with a short length). A slot
 * counts only when its marker is set and its checksum matches, so an entry half-written when the process died is
 * ignored (left unmarked). The marker is written last and cleared first.
 */
final class InFlightJournal implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(InFlightJournal.class);
    static final int SLOT_BYTES = 256;
    static final int DEFAULT_SLOTS = 65_536;
    private static final int HEADER_BYTES = 4096;
    private static final long MAGIC = 0x4147_4946_4a52_4e31L; // "AGIFJRN1"
    private static final int USED = 0x5e7_f117;
    private static final int SLOT_HEADER = 10;
    private static final int MAX_PAYLOAD = SLOT_BYTES - SLOT_HEADER;
    /** acceptedAt and the three lengths, every string empty. */
    private static final int MIN_PAYLOAD = 8 + 3 * 2;
    private static final int MAX_BOOT_ID = 64;
    private static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");

    /** An evaluation published and not yet answered; {@link #release()} it once its caller has an answer. */
    interface Entry {
        void release();

        /** Nothing journaled: no journal configured, all slots in use, or the ids too long for a slot. */
        Entry NONE = () -> {};
    }

    /** An evaluation the previous process of this replica published and never answered. */
    record Unanswered(String commandId, String workspaceId, String correlationId, Instant acceptedAt, Entry entry) {}

    private final Path file;
    /** Holds the file's lock for as long as it is open. */
    private final FileChannel channel;
    private final MappedByteBuffer slots;
    private final int slotCount;
    private final List<Unanswered> unanswered = new ArrayList<>();
    /** Free slot numbers, a stack; guarded by itself. */
    private final int[] free;
    private int freeCount;
    private boolean closed;

    private InFlightJournal(Path file, FileChannel channel, MappedByteBuffer slots, int slotCount,
                            List<Integer> recoveredSlots) {
        this.file = file;
        this.channel = channel;
        this.slots = slots;
        this.slotCount = slotCount;
        this.free = new int[slotCount];
        boolean[] taken = new boolean[slotCount];
        recoveredSlots.forEach(slot -> taken[slot] = true);
        for (int slot = slotCount - 1; slot >= 0; slot--) {
            if (!taken[slot]) {
                free[freeCount++] = slot;
            }
        }
    }

    /**
     * Opens (or creates) this replica's journal in {@code directory}: {@code ingress-<replyPartition>.inflight}.
     * Refuses a file another live process holds.
     */
    static InFlightJournal open(Path directory, int replyPartition) {
        return open(directory, replyPartition, DEFAULT_SLOTS, currentBootId());
    }

    static InFlightJournal open(Path directory, int replyPartition, int slotCount, Optional<String> bootId) {
        Path file = directory.resolve("ingress-" + replyPartition + ".inflight");
        FileChannel channel = null;
        try {
            Files.createDirectories(directory);
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            ownerOnly(file);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException sameProcess) {
                lock = null;
            }
            if (lock == null) {
                throw new IllegalStateException("the in-flight journal " + file + " is in use by another ingress process "
                        + "(gateway.ingress.journal-dir must be a directory of this replica's own)");
            }
            long size = HEADER_BYTES + (long) slotCount * SLOT_BYTES;
            ByteBuffer written = ByteBuffer.allocate(HEADER_BYTES);
            channel.read(written, 0);
            boolean sameLayout = channel.size() == size && written.getLong(0) == MAGIC && written.getInt(8) == SLOT_BYTES
                    && written.getInt(12) == slotCount;
            if (!sameLayout) {
                if (channel.size() > 0) {
                    log.warn("The in-flight journal {} has another layout; starting it afresh", file);
                }
                channel.truncate(0);
                channel.write(ByteBuffer.allocate(1), size - 1);
            }
            MappedByteBuffer header = channel.map(FileChannel.MapMode.READ_WRITE, 0, HEADER_BYTES);
            MappedByteBuffer slots = channel.map(FileChannel.MapMode.READ_WRITE, HEADER_BYTES, (long) slotCount * SLOT_BYTES);
            List<Integer> recoveredSlots = new ArrayList<>();
            if (sameLayout) {
                boolean trusted = bootId.isPresent() && bootId.get().equals(readBootId(header));
                int discarded = 0;
                for (int slot = 0; slot < slotCount; slot++) {
                    int at = slot * SLOT_BYTES;
                    if (slots.getInt(at) == 0) {
                        continue;
                    }
                    boolean valid = decode(slots, at).isPresent();
                    if (trusted && valid) {
                        recoveredSlots.add(slot);
                    } else {
                        slots.putInt(at, 0);
                        discarded += valid ? 1 : 0;
                    }
                }
                if (discarded > 0) {
                    log.warn("The in-flight journal {} was written before this machine restarted (or its boot is unknown): "
                            + "{} evaluation(s) the previous process had not answered stay recorded as delivered", file, discarded);
                }
            } else {
                header.putLong(0, MAGIC).putInt(8, SLOT_BYTES).putInt(12, slotCount);
            }
            writeBootId(header, bootId.orElse(""));
            InFlightJournal journal = new InFlightJournal(file, channel, slots, slotCount, recoveredSlots);
            for (int slot : recoveredSlots) {
                Decoded decoded = decode(slots, slot * SLOT_BYTES).orElseThrow();
                journal.unanswered.add(new Unanswered(decoded.commandId(), decoded.workspaceId(), decoded.correlationId(),
                        decoded.acceptedAt(), journal.new Held(slot)));
            }
            if (!journal.unanswered.isEmpty()) {
                log.info("The in-flight journal {} names {} evaluation(s) the previous process published and never answered: "
                        + "reporting them to the decision stream as reaching nobody", file, journal.unanswered.size());
            }
            return journal;
        } catch (IOException e) {
            closeQuietly(channel);
            throw new UncheckedIOException("cannot open the in-flight journal " + file, e);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    /** The evaluations the previous process left unanswered, each holding its slot until released. */
    List<Unanswered> unanswered() {
        return List.copyOf(unanswered);
    }

    /**
     * Journals an evaluation about to be published. Never fails the caller: with no slot free (more evaluations
     * waiting at once than slots) or ids that do not fit, nothing is journaled ({@link Entry#NONE}).
     */
    Entry record(String commandId, String workspaceId, String correlationId, Instant acceptedAt) {
        byte[] payload = encode(commandId, workspaceId, correlationId, acceptedAt);
        if (payload == null) {
            return Entry.NONE;
        }
        int slot;
        synchronized (free) {
            if (freeCount == 0 || closed) {
                return Entry.NONE;
            }
            slot = free[--freeCount];
        }
        int at = slot * SLOT_BYTES;
        CRC32 crc = new CRC32();
        crc.update(payload);
        slots.putShort(at + 8, (short) payload.length);
        slots.put(at + SLOT_HEADER, payload);
        slots.putInt(at + 4, (int) crc.getValue());
        slots.putInt(at, USED);
        return new Held(slot);
    }

    /** Slots in use (evaluations waiting for an answer, or whose give-up report is being sent). */
    int inUse() {
        synchronized (free) {
            return slotCount - freeCount;
        }
    }

    Path file() {
        return file;
    }

    /**
     * Unmaps nothing and clears nothing: entries still held (an evaluation a stopping process never answered, a
     * report it could not send) are the next start's to report. Closing the channel releases the lock.
     */
    @Override
    public void close() {
        synchronized (free) {
            closed = true;
        }
        closeQuietly(channel);
    }

    private final class Held implements Entry {
        private final int slot;
        private final AtomicBoolean released = new AtomicBoolean();

        Held(int slot) {
            this.slot = slot;
        }

        @Override
        public void release() {
            if (!released.compareAndSet(false, true)) {
                return;
            }
            synchronized (free) {
                if (closed) {
                    return; // the file is no longer this process's to change
                }
                slots.putInt(slot * SLOT_BYTES, 0);
                free[freeCount++] = slot;
            }
        }
    }

    private record Decoded(String commandId, String workspaceId, String correlationId, Instant acceptedAt) {}

    private static byte[] encode(String commandId, String workspaceId, String correlationId, Instant acceptedAt) {
        byte[] command = commandId.getBytes(StandardCharsets.UTF_8);
        byte[] workspace = workspaceId.getBytes(StandardCharsets.UTF_8);
        byte[] correlation = correlationId == null ? new byte[0] : correlationId.getBytes(StandardCharsets.UTF_8);
        int fixed = MIN_PAYLOAD + command.length + workspace.length;
        if (fixed > MAX_PAYLOAD) {
            return null;
        }
        if (fixed + correlation.length > MAX_PAYLOAD) {
            correlation = new byte[0]; // only for tracing the report; the ids are what it needs
        }
        ByteBuffer out = ByteBuffer.allocate(fixed + correlation.length);
        out.putLong(ChronoUnit.MICROS.between(Instant.EPOCH, acceptedAt));
        out.putShort((short) command.length).put(command);
        out.putShort((short) workspace.length).put(workspace);
        out.putShort((short) correlation.length).put(correlation);
        return out.array();
    }

    private static Optional<Decoded> decode(ByteBuffer slots, int at) {
        if (slots.getInt(at) != USED) {
            return Optional.empty();
        }
        int length = slots.getShort(at + 8);
        if (length < MIN_PAYLOAD || length > MAX_PAYLOAD) {
            return Optional.empty();
        }
        byte[] payload = new byte[length];
        slots.get(at + SLOT_HEADER, payload);
        CRC32 crc = new CRC32();
        crc.update(payload);
        if ((int) crc.getValue() != slots.getInt(at + 4)) {
            return Optional.empty();
        }
        try {
            ByteBuffer in = ByteBuffer.wrap(payload);
            Instant acceptedAt = Instant.EPOCH.plus(in.getLong(), ChronoUnit.MICROS);
            String commandId = readString(in);
            String workspaceId = readString(in);
            String correlationId = readString(in);
            if (commandId.isEmpty() || workspaceId.isEmpty() || in.hasRemaining()) {
                return Optional.empty();
            }
            return Optional.of(new Decoded(commandId, workspaceId, correlationId.isEmpty() ? null : correlationId, acceptedAt));
        } catch (RuntimeException malformed) {
            return Optional.empty();
        }
    }

    private static String readString(ByteBuffer in) {
        byte[] bytes = new byte[in.getShort()];
        in.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static String readBootId(ByteBuffer header) {
        int length = header.getShort(16);
        if (length < 0 || length > MAX_BOOT_ID) {
            return null;
        }
        byte[] bytes = new byte[length];
        header.get(18, bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    private static void writeBootId(ByteBuffer header, String bootId) {
        byte[] bytes = bootId.getBytes(StandardCharsets.US_ASCII);
        int length = Math.min(bytes.length, MAX_BOOT_ID);
        header.put(18, bytes, 0, length);
        header.putShort(16, (short) length);
    }

    /** This boot's id on Linux; empty elsewhere (the journal's entries are then never trusted after a start). */
    static Optional<String> currentBootId() {
        try {
            String id = Files.readString(BOOT_ID).trim();
            return id.isEmpty() ? Optional.empty() : Optional.of(id);
        } catch (IOException | UnsupportedOperationException | SecurityException notLinux) {
            return Optional.empty();
        }
    }

    /** Ids and correlation ids, no secrets; still nobody else's to read. */
    private static void ownerOnly(Path file) throws IOException {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException notPosix) {
            // the directory's own protection applies
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing left to do with it
            }
        }
    }
}
