package io.agentgateway.evidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.SecureRandom;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Ed25519 keys and signed notes in the C2SP forms, checked against the signed-note spec's own example. */
class SignedNoteTest {
    /** The example of c2sp.org/signed-note, "Verifier keys": this key verifies this note. */
    private static final String SPEC_VKEY = "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k";
    private static final String SPEC_NOTE = "This is an example message.\n\n"
            + "\u2014 example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n";

    @Test
    void verifiesTheSpecsExample() {
        NoteKeys.VerifierKey key = NoteKeys.parseVerifier(SPEC_VKEY);
        assertThat(key.name()).isEqualTo("example.com/foo");
        assertThat(key.keyIdHex()).isEqualTo("530d903a");
        assertThat(key.text()).isEqualTo(SPEC_VKEY);
        SignedNote note = SignedNote.parse(SPEC_NOTE);
        assertThat(note.text()).isEqualTo("This is an example message.\n");
        assertThat(note.encoded()).isEqualTo(SPEC_NOTE);
        assertThat(note.verify(List.of(key)).ok()).isTrue();
        // the same signature over another text fails: the trusted key's signature must verify, so the note is refused
        SignedNote altered = new SignedNote("This is another message.\n", note.signatures());
        assertThat(altered.verify(List.of(key)).ok()).isFalse();
        assertThat(altered.verify(List.of(key)).problem()).contains("does not verify");
    }

    @Test
    void signsVerifiesAndRoundTripsItsKeys() {
        NoteKeys.SignerKey signer = NoteKeys.generate("gateway.example/audit", new SecureRandom());
        NoteKeys.SignerKey same = NoteKeys.parseSigner(signer.text());
        assertThat(same.verifier()).isEqualTo(signer.verifier());
        assertThat(NoteKeys.parseVerifier(signer.verifier().text())).isEqualTo(signer.verifier());
        assertThat(signer.toString()).doesNotContain(signer.text().substring(signer.text().lastIndexOf('+') + 1));

        String body = new Checkpoint("gateway.example/audit/w1", 5, MerkleHasher.emptyRoot()).body();
        SignedNote note = SignedNote.sign(body, signer);
        // Ed25519 is deterministic: signing again gives the same note
        assertThat(SignedNote.sign(body, same).encoded()).isEqualTo(note.encoded());
        SignedNote parsed = SignedNote.parse(note.encoded());
        assertThat(parsed.verify(List.of(signer.verifier())).by()).contains(signer.verifier());
        assertThat(Checkpoint.parse(parsed.text()).size()).isEqualTo(5);

        NoteKeys.SignerKey other = NoteKeys.generate("gateway.example/audit", new SecureRandom());
        assertThat(parsed.verify(List.of(other.verifier())).ok()).isFalse();
        assertThat(parsed.verify(List.of(other.verifier())).problem()).startsWith("no signature by a trusted key");
        // a cosignature by an unknown key is ignored; the trusted one still verifies
        SignedNote cosigned = parsed.with(SignedNote.sign(body, other).signatures().get(0));
        assertThat(SignedNote.parse(cosigned.encoded()).verify(List.of(signer.verifier())).ok()).isTrue();
        assertThat(SignedNote.parse(cosigned.encoded()).verify(List.of(other.verifier(), signer.verifier())).ok()).isTrue();
        // unsigned: the text alone, refused
        SignedNote unsigned = SignedNote.parse(body);
        assertThat(unsigned.signed()).isFalse();
        assertThat(unsigned.verify(List.of(signer.verifier())).problem()).isEqualTo("the note is not signed");
    }

    @Test
    void refusesMalformedKeysAndNotes() {
        assertThatThrownBy(() -> NoteKeys.parseVerifier("example.com/foo+530d903b+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k"))
                .hasMessageContaining("id does not match");
        assertThatThrownBy(() -> NoteKeys.parseVerifier("nonsense")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> NoteKeys.parseSigner("example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> NoteKeys.generate("has space", new SecureRandom())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SignedNote.parse("no newline")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SignedNote.parse("text\n\n\u2014 name !!!\n")).hasMessageContaining("base64");
        assertThatThrownBy(() -> SignedNote.parse("text\u0007\n")).hasMessageContaining("control");
        assertThatThrownBy(() -> Checkpoint.parse("origin\n012\n" + Hashes.base64(MerkleHasher.emptyRoot()) + "\n"))
                .hasMessageContaining("leading zeroes");
        assertThatThrownBy(() -> Checkpoint.parse("origin\n12\nAAAA\n")).hasMessageContaining("not 32");
    }
}
