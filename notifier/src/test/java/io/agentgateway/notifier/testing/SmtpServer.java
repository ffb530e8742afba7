package io.agentgateway.notifier.testing;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import jakarta.mail.Address;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.util.Arrays;
import java.util.List;

/** GreenMail as a real SMTP server on a free loopback port, with look-ups by mailbox. */
public final class SmtpServer implements AutoCloseable {
    private final GreenMail greenMail;

    private SmtpServer(GreenMail greenMail) {
        this.greenMail = greenMail;
    }

    public static SmtpServer start() {
        GreenMail greenMail = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort());
        greenMail.start();
        return new SmtpServer(greenMail);
    }

    public int port() {
        return greenMail.getSmtp().getPort();
    }

    /** The messages in one recipient's mailbox (GreenMail stores one copy per recipient). */
    public List<MimeMessage> mailbox(String address) {
        return greenMail.findReceivedMessages(user -> user.getEmail().equalsIgnoreCase(address), message -> true).toList();
    }

    public static List<String> addresses(Address[] addresses) {
        return addresses == null ? List.of() : Arrays.stream(addresses).map(Address::toString).toList();
    }

    public static String subject(MimeMessage message) {
        try {
            return message.getSubject();
        } catch (MessagingException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        greenMail.stop();
    }
}
