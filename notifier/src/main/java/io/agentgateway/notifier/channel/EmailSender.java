package io.agentgateway.notifier.channel;

import io.agentgateway.schemas.notification.NotificationRequested;
import jakarta.mail.SendFailedException;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.mail.MailException;
import org.springframework.mail.MailSendException;
import org.springframework.mail.SimpleMailMessage;
import org.springframework.mail.javamail.JavaMailSender;

/** Sends one plain-text email per notification, addressed to every recipient in {@code emailTo}, over SMTP. */
public class EmailSender implements ChannelSender {
    private static final Logger log = LoggerFactory.getLogger(EmailSender.class);

    private final JavaMailSender mailSender;
    private final String from;
    private final ReviewLinks reviewLinks;

    public EmailSender(JavaMailSender mailSender, String from) {
        this(mailSender, from, ReviewLinks.pathsOnly());
    }

    public EmailSender(JavaMailSender mailSender, String from, ReviewLinks reviewLinks) {
        this.mailSender = Objects.requireNonNull(mailSender, "mailSender");
        this.from = Objects.requireNonNull(from, "from");
        this.reviewLinks = Objects.requireNonNull(reviewLinks, "reviewLinks");
    }

    @Override
    public Channel channel() {
        return Channel.EMAIL;
    }

    @Override
    public boolean appliesTo(NotificationRequested notification) {
        return !recipients(notification).isEmpty();
    }

    @Override
    public void send(NotificationRequested notification) throws DeliveryFailedException {
        List<String> to = recipients(notification);
        SimpleMailMessage message = new SimpleMailMessage();
        message.setFrom(from);
        message.setTo(to.toArray(String[]::new));
        message.setSubject(NotificationText.subject(notification));
        message.setText(NotificationText.emailBody(notification, reviewLinks));
        try {
            mailSender.send(message);
        } catch (MailException e) {
            String reason = "SMTP delivery failed: " + describe(e);
            throw mayHaveBeenDelivered(e)
                    ? DeliveryFailedException.inDoubt(reason)
                    : DeliveryFailedException.notDelivered(reason);
        }
    }

    /**
     * The valid addresses of {@code emailTo}. An address that does not parse is left out (and logged)
     * rather than failing the whole email: it would fail on every retry and keep the others from
     * ever hearing of the event.
     */
    List<String> recipients(NotificationRequested notification) {
        if (notification.emailTo() == null) {
            return List.of();
        }
        return notification.emailTo().stream()
                .filter(Objects::nonNull)
                .map(String::strip)
                .filter(address -> !address.isEmpty())
                .filter(address -> isValid(address, notification.notificationId()))
                .distinct()
                .toList();
    }

    private static boolean isValid(String address, String notificationId) {
        try {
            new InternetAddress(address, true).validate();
            return true;
        } catch (AddressException e) {
            log.warn("notification {}: leaving out an email recipient that is not a valid address", notificationId);
            return false;
        }
    }

    /**
     * Whether the SMTP server may have accepted the message although we saw an error. Spring's
     * {@link MailSendException} lists the messages that failed; when it lists none, every message
     * went out and only closing the connection failed. A timeout while waiting for the server's
     * answer after connecting leaves it open whether the server took the message. A negative SMTP
     * answer ({@link SendFailedException}), a failed connection, bad credentials or a message we
     * could not build mean the message certainly did not go out.
     */
    static boolean mayHaveBeenDelivered(MailException e) {
        if (!(e instanceof MailSendException sendException)) {
            return false;
        }
        if (sendException.getFailedMessages().isEmpty()) {
            return true;
        }
        return sendException.getFailedMessages().values().stream().anyMatch(EmailSender::isTimeoutAfterConnecting);
    }

    private static boolean isTimeoutAfterConnecting(Exception failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SendFailedException) {
                return false;
            }
            if (t instanceof SocketTimeoutException timeout) {
                String message = timeout.getMessage() == null ? "" : timeout.getMessage().toLowerCase(Locale.ROOT);
                return !message.contains("connect timed out");
            }
        }
        return false;
    }

    /** The innermost cause of the (first) failure: SMTP replies and connection errors name no secret. */
    private static String describe(MailException e) {
        Throwable failure = e instanceof MailSendException sendException && !sendException.getFailedMessages().isEmpty()
                ? sendException.getFailedMessages().values().iterator().next()
                : e;
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage().strip());
    }
}
