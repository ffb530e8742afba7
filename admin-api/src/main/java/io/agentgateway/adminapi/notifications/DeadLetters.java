package io.agentgateway.adminapi.notifications;

import io.agentgateway.adminapi.shared.WorkspaceRoles;
import io.agentgateway.httpedge.auth.AuthenticatedUser;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.httpedge.web.ErrorMessages;
import io.agentgateway.schemas.deadletter.DeadLetterRedrive;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;

/**
 * A workspace's dead-lettered notifications (the notifier gave up on a channel after its last attempt and wrote the
 * notification to {@code gateway.notifications.dlt.v1}), and sending one again, for every client of it (the admin API,
 * the console): {@link DeadLetterRedrive} (the wire contract's, which {@code launcher redrive-notifications} runs too)
 * for one dead letter of one workspace. Sending again never sends twice: the notifier's delivery ledger delivers only
 * the channels that failed (a channel sent, or possibly sent, is never repeated), and each dead-letter record is claimed
 * here first ({@link NotificationRedrives}), so a second press says who sent it again and when instead of writing it
 * again. Not a command: nothing of the workspace's state changes; who did it is kept in that table and logged. Admins
 * and owners only (the read model's membership, as the admin API's reads).
 */
@Service
public class DeadLetters {
    static final String NOT_FOUND = "No such dead-lettered notification in this workspace";
    static final String UNAVAILABLE = "The notifications' dead-letter topic cannot be read right now";
    /** How long Kafka may take to answer a listing or a send. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final Logger log = LoggerFactory.getLogger(DeadLetters.class);

    /**
     * One dead letter of the workspace, newest first. {@code id}: the record's position, what {@link #redrive} takes;
     * {@code redrivenAt}/{@code redrivenBy}: when and by whom it was sent again (null: not yet).
     */
    public record DeadLetter(String id, String notificationId, String kind, String subject, Instant deadLetteredAt,
                             String failedChannels, String deliveryError, Instant redrivenAt, String redrivenBy) {}

    private final String bootstrapServers;
    private final NotificationRedrives redrives;
    private final WorkspaceRoles roles;

    DeadLetters(KafkaProperties kafka, NotificationRedrives redrives, WorkspaceRoles roles) {
        this.bootstrapServers = String.join(",", kafka.getBootstrapServers());
        this.redrives = redrives;
        this.roles = roles;
    }

    /** Newest first; 403 for anyone but an admin or owner, 503 when Kafka cannot be read. */
    public Mono<List<DeadLetter>> list(AuthenticatedUser admin, UUID workspaceId) {
        return Blocking.call(() -> {
            requireAdmin(admin, workspaceId);
            DeadLetterRedrive.Result found;
            try {
                found = DeadLetterRedrive.run(bootstrapServers, new DeadLetterRedrive.Filter(Optional.empty(), Optional.empty(),
                        Optional.of(workspaceId.toString())), true, TIMEOUT);
            } catch (KafkaException e) {
                throw unavailable(e);
            }
            Map<String, NotificationRedrives.Redrive> redriven = redrives.of(workspaceId);
            return found.redriven().stream()
                    .map(letter -> {
                        NotificationRedrives.Redrive redrive = redriven.get(letter.position());
                        return new DeadLetter(letter.position(), letter.notificationId(), letter.kind(), letter.subject(),
                                letter.deadLetteredAt(), letter.failedChannels(), letter.deliveryError(),
                                redrive == null ? null : redrive.at(), redrive == null ? null : redrive.by());
                    })
                    .sorted(Comparator.comparing(DeadLetter::deadLetteredAt).reversed())
                    .toList();
        });
    }

    /**
     * Sends the dead letter {@code id} of the workspace again, once: the dead letter as sent again, or 403 (not admin
     * or owner), 404 {@value #NOT_FOUND}, 409 (sent again before: by whom, when), 503 (Kafka unavailable; the claim is
     * given back).
     */
    public Mono<DeadLetter> redrive(AuthenticatedUser admin, UUID workspaceId, String id) {
        return Blocking.call(() -> redriveNow(admin, workspaceId, id));
    }

    private DeadLetter redriveNow(AuthenticatedUser admin, UUID workspaceId, String id) {
        requireAdmin(admin, workspaceId);
        if (id == null || !id.matches("[0-9]{1,9}-[0-9]{1,18}")) {
            throw ApiException.notFound(NOT_FOUND);
        }
        Instant now = Instant.now();
        if (!redrives.claim(workspaceId, id, admin.userId(), now)) {
            NotificationRedrives.Redrive earlier = redrives.of(workspaceId).get(id);
            throw new ApiException(HttpStatus.CONFLICT, "This dead letter was sent again"
                    + (earlier == null ? "" : " by " + earlier.by() + " at " + earlier.at()) + ": it is not sent twice");
        }
        Optional<DeadLetterRedrive.Redriven> sent;
        try {
            sent = DeadLetterRedrive.redriveOne(bootstrapServers, workspaceId.toString(), id, TIMEOUT);
        } catch (RuntimeException e) {
            redrives.release(workspaceId, id);
            throw e instanceof ApiException api ? api : unavailable(e);
        }
        if (sent.isEmpty()) {
            redrives.release(workspaceId, id);
            throw ApiException.notFound(NOT_FOUND);
        }
        DeadLetterRedrive.Redriven letter = sent.get();
        redrives.sent(workspaceId, id, letter.notificationId());
        log.info("dead-lettered notification {} ({}) of workspace {} sent again by {}", letter.notificationId(), letter.kind(),
                workspaceId, admin.userId());
        return new DeadLetter(id, letter.notificationId(), letter.kind(), letter.subject(), letter.deadLetteredAt(),
                letter.failedChannels(), letter.deliveryError(), now, admin.userId());
    }

    private void requireAdmin(AuthenticatedUser user, UUID workspaceId) {
        if (!roles.administers(workspaceId, user.userId())) {
            throw ApiException.forbidden(ErrorMessages.ADMIN_REQUIRED);
        }
    }

    private static ApiException unavailable(RuntimeException e) {
        log.warn("the notifications' dead-letter topic could not be read or written: {}", e.toString());
        return new ApiException(HttpStatus.SERVICE_UNAVAILABLE, UNAVAILABLE);
    }
}
