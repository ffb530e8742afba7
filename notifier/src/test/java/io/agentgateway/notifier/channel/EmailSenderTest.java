package io.agentgateway.notifier.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.notifier.testing.Notifications;
import io.agentgateway.notifier.testing.SmtpServer;
import io.agentgateway.schemas.notification.NotificationRequested;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.SendFailedException;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.mail.MailAuthenticationException;
import org.springframework.mail.MailSendException;
import org.springframework.mail.javamail.JavaMailSenderImpl;

class EmailSenderTest {
    private static SmtpServer smtp;
    private static EmailSender sender;

    @BeforeAll
    static void start() {
        smtp = SmtpServer.start();
        sender = new EmailSender(mailSender(smtp.port()), "gateway@example.test");
    }

    @AfterAll
    static void stop() {
        smtp.close();
    }

    @Test
    void sendsOnePlainTextEmailToEveryRecipient() throws Exception {
        String alice = newAddress("alice");
        String bob = newAddress("bob");
        NotificationRequested notification = Notifications.killSwitch(UUID.randomUUID().toString(), List.of(alice, bob), null);

        sender.send(notification);

        for (String recipient : List.of(alice, bob)) {
            assertThat(smtp.mailbox(recipient)).singleElement().satisfies(message -> {
                assertThat(message.getSubject()).isEqualTo("Kill switch enabled [" + notification.notificationId() + "]");
                assertThat(SmtpServer.addresses(message.getFrom())).containsExactly("gateway@example.test");
                assertThat(SmtpServer.addresses(message.getRecipients(Message.RecipientType.TO))).containsExactly(alice, bob);
                assertThat(message.isMimeType("text/plain")).isTrue();
                assertThat(body(message))
                        .contains("All agent activity in the workspace has been halted.")
                        .contains("action: enable")
                        .contains("actor: admin@example.test")
                        .contains("Correlation id: " + notification.correlationId());
            });
        }
    }

    @Test
    void leavesOutAddressesThatDoNotParse() throws Exception {
        String carol = newAddress("carol");
        NotificationRequested notification = Notifications.killSwitch(UUID.randomUUID().toString(),
                List.of("not an address", carol, " ", "a@b@c"), null);

        assertThat(sender.appliesTo(notification)).isTrue();
        sender.send(notification);

        assertThat(smtp.mailbox(carol)).singleElement()
                .satisfies(message -> assertThat(SmtpServer.addresses(message.getAllRecipients())).containsExactly(carol));
    }

    @Test
    void appliesOnlyWhenThereIsAValidRecipient() {
        assertThat(sender.appliesTo(Notifications.killSwitch("w", null, null))).isFalse();
        assertThat(sender.appliesTo(Notifications.killSwitch("w", List.of(), null))).isFalse();
        assertThat(sender.appliesTo(Notifications.killSwitch("w", List.of("nobody"), null))).isFalse();
    }

    @Test
    void anUnreachableServerIsAFailureThatCanBeRetried() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        EmailSender toNowhere = new EmailSender(mailSender(closedPort), "gateway@example.test");

        assertThatThrownBy(() -> toNowhere.send(Notifications.killSwitch("w", List.of(newAddress("dave")), null)))
                .isInstanceOfSatisfying(DeliveryFailedException.class, e -> {
                    assertThat(e.mayHaveBeenDelivered()).isFalse();
                    assertThat(e.getMessage()).startsWith("SMTP delivery failed");
                });
    }

    @Test
    void onlyATimeoutAfterConnectingOrAFailedCloseLeavesTheDeliveryInDoubt() {
        Object message = new Object();
        assertThat(EmailSender.mayHaveBeenDelivered(new MailSendException("Failed to close server connection after message sending")))
                .isTrue();
        assertThat(EmailSender.mayHaveBeenDelivered(new MailSendException(Map.of(message,
                new MessagingException("Exception reading response", new SocketTimeoutException("Read timed out"))))))
                .isTrue();

        assertThat(EmailSender.mayHaveBeenDelivered(new MailSendException("Mail server connection failed",
                new MessagingException("Couldn't connect", new SocketTimeoutException("Connect timed out")),
                Map.of(message, new MessagingException("Couldn't connect", new SocketTimeoutException("Connect timed out"))))))
                .isFalse();
        assertThat(EmailSender.mayHaveBeenDelivered(new MailSendException(Map.of(message,
                new MessagingException("Couldn't connect", new ConnectException("Connection refused"))))))
                .isFalse();
        assertThat(EmailSender.mayHaveBeenDelivered(new MailSendException(Map.of(message,
                new SendFailedException("550 mailbox unavailable")))))
                .isFalse();
        assertThat(EmailSender.mayHaveBeenDelivered(new MailAuthenticationException("535 authentication failed")))
                .isFalse();
    }

    private static JavaMailSenderImpl mailSender(int port) {
        JavaMailSenderImpl mailSender = new JavaMailSenderImpl();
        mailSender.setHost("127.0.0.1");
        mailSender.setPort(port);
        mailSender.getJavaMailProperties().put("mail.smtp.connectiontimeout", "2000");
        mailSender.getJavaMailProperties().put("mail.smtp.timeout", "2000");
        return mailSender;
    }

    private static String body(MimeMessage message) {
        try {
            return message.getContent().toString();
        } catch (IOException | MessagingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String newAddress(String name) {
        return name + "-" + UUID.randomUUID() + "@example.test";
    }
}
