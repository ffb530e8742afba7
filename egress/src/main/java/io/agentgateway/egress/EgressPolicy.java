package io.agentgateway.egress;

import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressString;
import inet.ipaddr.IPAddressStringParameters;
import inet.ipaddr.ipv6.IPv6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Where the gateway may connect out to. Checked twice: when a URL is configured ({@link #refusalOfUrl},
 * on the URL as written: a literal address in any of its spellings, or a name) and when connecting
 * ({@link #checkName} and {@link #checkAddress}, on every address the name resolved to, by
 * {@link EgressResolverGroup}; the connection then goes to the checked address, so a name that
 * resolves differently the second time, DNS rebinding, gains nothing).
 *
 * <p>Rules, in this order:
 * <ol>
 *   <li>cloud metadata addresses and names (169.254.169.254, fd00:ec2::254, 100.100.100.200,
 *       metadata.google.internal, ...): never;</li>
 *   <li>link-local (169.254.0.0/16, fe80::/10), unspecified (0.0.0.0/8, ::), multicast, broadcast and
 *       reserved (240.0.0.0/4): never;</li>
 *   <li>the gateway's own listeners (a local address on a port this process serves, or the origin of
 *       its public base URL): never;</li>
 *   <li>loopback (127.0.0.0/8, ::1, {@code localhost}) and private ranges (10/8, 172.16/12, 192.168/16,
 *       100.64/10, fc00::/7, fec0::/10): only when {@code gateway.egress.allow} lists the address (a CIDR
 *       or an address) or the host name;</li>
 *   <li>anything else (public addresses): allowed.</li>
 * </ol>
 * An IPv4 address written as IPv6 (::ffff:127.0.0.1, ::127.0.0.1, 64:ff9b::127.0.0.1) is judged as the
 * IPv4 address; IPv4 literals are read as inet_aton reads them (2130706433, 0x7f.1, 0177.0.0.1, 127.1),
 * and trailing dots of names and addresses are dropped, so no spelling slips past.
 */
public final class EgressPolicy {
    /** The header every request the gateway sends carries; an incoming request that carries it is refused. */
    public static final String HOP_HEADER = "X-Agent-Gateway-Hop";
    static final String ALLOW_SETTING = "gateway.egress.allow";

    /** Literal parsing as inet_aton: decimal, octal and hex parts, 1 to 4 of them; IPv6 with or without brackets. */
    private static final IPAddressStringParameters LITERALS = new IPAddressStringParameters.Builder()
            .allowPrefix(false).allowMask(false).allowEmpty(false).allowAll(false).allowSingleSegment(true)
            .allowWildcardedSeparator(false)
            .getIPv4AddressParametersBuilder().allow_inet_aton(true).allow_inet_aton_hex(true).allow_inet_aton_octal(true)
            .allow_inet_aton_joined_segments(true).allow_inet_aton_leading_zeros(true).getParentBuilder()
            .toParams();
    private static final IPAddressStringParameters CIDRS = new IPAddressStringParameters.Builder()
            .allowEmpty(false).allowAll(false).allowSingleSegment(false).allowWildcardedSeparator(false).toParams();

    private static final List<IPAddress> METADATA = ranges("169.254.169.254", "169.254.170.2", "fd00:ec2::254",
            "100.100.100.200", "192.0.0.192");
    private static final Set<String> METADATA_NAMES = Set.of("metadata.google.internal", "metadata.goog", "metadata",
            "metadata.azure.internal", "instance-data", "instance-data.ec2.internal", "metadata.tencentyun.com",
            "metadata.platformequinix.com");
    private static final List<IPAddress> LINK_LOCAL = ranges("169.254.0.0/16", "fe80::/10");
    private static final List<IPAddress> UNSPECIFIED = ranges("0.0.0.0/8", "::/128");
    private static final List<IPAddress> MULTICAST_BROADCAST = ranges("224.0.0.0/4", "240.0.0.0/4", "ff00::/8");
    private static final List<IPAddress> LOOPBACK = ranges("127.0.0.0/8", "::1/128");
    private static final List<IPAddress> PRIVATE = ranges("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",
            "100.64.0.0/10", "fc00::/7", "fec0::/10");
    private static final IPAddress NAT64 = range("64:ff9b::/96");

    private final List<IPAddress> allowedRanges;
    private final List<String> allowedNames;
    private final OwnListeners own;
    private final List<Origin> ownOrigins;

    /** A host (normalized: lower case, no trailing dot, no brackets) and a port. */
    record Origin(String host, int port) {}

    /**
     * @param allow      the operator's allow-list ({@code gateway.egress.allow}): CIDRs, addresses, host names,
     *                   or {@code *.suffix} for every name under a domain
     * @param own        the process's listeners
     * @param ownUrls    the gateway's own public URLs (its public base URL): their origin is refused like a listener
     * @throws IllegalArgumentException naming an entry that is none of these
     */
    public EgressPolicy(List<String> allow, OwnListeners own, List<String> ownUrls) {
        List<IPAddress> rangesAllowed = new ArrayList<>();
        List<String> namesAllowed = new ArrayList<>();
        for (String entry : allow == null ? List.<String>of() : allow) {
            String text = entry == null ? "" : entry.strip();
            if (text.isEmpty()) {
                continue;
            }
            IPAddress range = new IPAddressString(text, CIDRS).getAddress();
            if (range != null) {
                rangesAllowed.add(range);
            } else if (text.matches("(\\*\\.)?[A-Za-z0-9_]([A-Za-z0-9_-]*[A-Za-z0-9_])?(\\.[A-Za-z0-9_]([A-Za-z0-9_-]*[A-Za-z0-9_])?)*\\.?")) {
                namesAllowed.add(normalizeName(text));
            } else {
                throw new IllegalArgumentException(ALLOW_SETTING + " entry '" + text
                        + "' is neither a CIDR, an address nor a host name");
            }
        }
        this.allowedRanges = List.copyOf(rangesAllowed);
        this.allowedNames = List.copyOf(namesAllowed);
        this.own = own;
        List<Origin> origins = new ArrayList<>();
        for (String url : ownUrls == null ? List.<String>of() : ownUrls) {
            originOf(url).ifPresent(origins::add);
        }
        this.ownOrigins = List.copyOf(origins);
    }

    /**
     * The configuration-time check of an outbound URL as written: its host, a literal address in any spelling
     * or a name (a name is resolved only when connecting). Only the address part is judged here: a URL that
     * is not an absolute http(s) URL with a host is left to the caller's own validation.
     *
     * @return why the URL is refused (a sentence naming the rule), or empty
     */
    public Optional<String> refusalOfUrl(String url) {
        Optional<Origin> origin = originOf(url);
        if (origin.isEmpty()) {
            return Optional.empty();
        }
        String host = origin.get().host();
        int port = origin.get().port();
        IPAddress literal = literal(host);
        try {
            if (literal != null) {
                checkAddress(null, literal, port);
            } else {
                checkName(host, port);
                if (isLocalhostName(host)) {
                    checkAddress(host, range("127.0.0.1"), port);
                    checkAddress(host, range("::1"), port);
                }
            }
            return Optional.empty();
        } catch (EgressRefusedException refused) {
            return Optional.of(refused.rule());
        }
    }

    /**
     * The rules on a host name alone (cloud metadata names, the gateway's own public origin), before it is
     * resolved. Addresses (a literal host) pass here; {@link #checkAddress} judges them.
     */
    public void checkName(String host, int port) throws EgressRefusedException {
        String name = normalizeName(host);
        if (METADATA_NAMES.contains(name)) {
            throw new EgressRefusedException(name + " is a cloud metadata name: never allowed");
        }
        for (Origin origin : ownOrigins) {
            if (origin.host().equals(name) && origin.port() == port) {
                throw new EgressRefusedException(name + ":" + port + " is the gateway's own public address: never allowed");
            }
        }
    }

    /**
     * The rules on one address a connection would go to.
     *
     * @param host the name it was resolved from (its allow-list entry counts), or null
     */
    public void checkAddress(String host, InetAddress address, int port) throws EgressRefusedException {
        IPAddress ip = new IPAddressString(address.getHostAddress()).getAddress();
        if (ip == null) {
            throw new EgressRefusedException(address.getHostAddress() + " is not an address the policy can judge: never allowed");
        }
        checkAddress(host, ip, port);
    }

    private void checkAddress(String host, IPAddress written, int port) throws EgressRefusedException {
        IPAddress ip = unwrapped(written);
        String shown = ip.toCanonicalString() + (ip == written ? "" : " (written " + written.toCanonicalString() + ")");
        if (in(ip, METADATA)) {
            throw new EgressRefusedException(shown + " is a cloud metadata address: never allowed");
        }
        if (in(ip, LINK_LOCAL)) {
            throw new EgressRefusedException(shown + " is link-local (169.254.0.0/16, fe80::/10): never allowed");
        }
        if (in(ip, UNSPECIFIED)) {
            throw new EgressRefusedException(shown + " is the unspecified address (0.0.0.0/8, ::): never allowed");
        }
        if (in(ip, MULTICAST_BROADCAST)) {
            throw new EgressRefusedException(shown + " is multicast, broadcast or reserved: never allowed");
        }
        if (port > 0 && own.isOwnPort(port) && own.isLocal(ip.toInetAddress())) {
            throw new EgressRefusedException(shown + ":" + port + " is one of the gateway's own listeners: never allowed");
        }
        boolean loopback = in(ip, LOOPBACK);
        if ((loopback || in(ip, PRIVATE)) && !allowed(host, ip)) {
            throw new EgressRefusedException(shown + (loopback ? " is a loopback address" : " is a private address")
                    + ": allowed only when " + ALLOW_SETTING + " lists it");
        }
    }

    private boolean allowed(String host, IPAddress ip) {
        for (IPAddress range : allowedRanges) {
            if (range.getIPVersion() == ip.getIPVersion() && range.contains(ip)) {
                return true;
            }
        }
        if (host != null) {
            String name = normalizeName(host);
            for (String entry : allowedNames) {
                if (entry.startsWith("*.") ? name.endsWith(entry.substring(1)) : entry.equals(name)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The IPv4 address inside an IPv4-mapped, IPv4-compatible or NAT64 (64:ff9b::/96) IPv6 address; else itself. */
    private static IPAddress unwrapped(IPAddress ip) {
        if (ip.isIPv6()) {
            IPv6Address v6 = ip.toIPv6();
            if (v6.isIPv4Mapped() || (v6.isIPv4Compatible() && !v6.isZero() && !v6.isLoopback()) || NAT64.contains(v6)) {
                return v6.getEmbeddedIPv4Address();
            }
        }
        return ip;
    }

    private static boolean in(IPAddress ip, List<IPAddress> ranges) {
        for (IPAddress range : ranges) {
            if (range.getIPVersion() == ip.getIPVersion() && range.contains(ip)) {
                return true;
            }
        }
        return false;
    }

    /** A host written as an address, in any spelling inet_aton or an IPv6 parser reads, or null for a name. */
    static IPAddress literal(String host) {
        String text = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        int zone = text.indexOf('%');
        if (zone >= 0 && text.contains(":")) {
            text = text.substring(0, zone);
        }
        while (text.endsWith(".")) {
            text = text.substring(0, text.length() - 1);
        }
        if (text.isEmpty()) {
            return null;
        }
        return new IPAddressString(text, LITERALS).getAddress();
    }

    static boolean isLocalhostName(String host) {
        String name = normalizeName(host);
        return name.equals("localhost") || name.endsWith(".localhost");
    }

    static String normalizeName(String host) {
        String name = host.toLowerCase(Locale.ROOT);
        while (name.endsWith(".")) {
            name = name.substring(0, name.length() - 1);
        }
        return name;
    }

    /** The host and effective port of an absolute http(s) URL, or empty when it is none. */
    static Optional<Origin> originOf(String url) {
        if (url == null || url.isBlank()) {
            return Optional.empty();
        }
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https"))) {
            return Optional.empty();
        }
        String host = uri.getHost();
        int port = uri.getPort();
        if (host == null && uri.getRawAuthority() != null) {
            // java.net.URI gives no host for what RFC 2396 does not call one (127.0.0.1., 0251.0376.0251.0376,
            // a label with _), though HTTP clients connect to it: taken from the authority as written
            String authority = uri.getRawAuthority();
            authority = authority.substring(authority.lastIndexOf('@') + 1);
            int colon = authority.lastIndexOf(':');
            if (colon > authority.lastIndexOf(']') && authority.substring(colon + 1).matches("[0-9]{1,5}")) {
                port = Integer.parseInt(authority.substring(colon + 1));
                authority = authority.substring(0, colon);
            }
            host = authority.isEmpty() ? null : authority;
        }
        if (host == null) {
            return Optional.empty();
        }
        port = port >= 0 ? port : scheme.equals("https") ? 443 : 80;
        IPAddress literal = literal(host);
        String normalized = literal != null ? unwrapped(literal).toCanonicalString() : normalizeName(host);
        return Optional.of(new Origin(normalized, port));
    }

    private static List<IPAddress> ranges(String... cidrs) {
        List<IPAddress> list = new ArrayList<>();
        for (String cidr : cidrs) {
            list.add(range(cidr));
        }
        return List.copyOf(list);
    }

    private static IPAddress range(String cidr) {
        IPAddress address = new IPAddressString(cidr).getAddress();
        if (address == null) {
            throw new IllegalStateException("not a range: " + cidr);
        }
        return address;
    }
}
