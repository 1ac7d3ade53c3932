package io.fairledger.core.chain;

import java.security.PublicKey;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The one check of a cluster's closed statements, in the order of a statements download (period order): every closed
 * statement with a {@code chain} member must follow the one before ({@code sequence} one more, {@code previous} its
 * {@code hash}; the first: sequence 1 after the genesis value), its {@code hash} must be that of its own content
 * ({@link StatementChain#hash}), and its {@code signature} the signature of that hash by the key {@code keyId} names.
 * Closed statements without a chain (closed before the chain existed) may only come before the first chained one;
 * provisional statements are not closed and have none. Used by the server's periodic check and by
 * {@code fairledger verify}.
 */
public final class ChainVerifier {

    /** Why a period does not hold. */
    public enum Reason {
        /** Out of the chain: wrong sequence or previous hash (a period missing, added or reordered before it). */
        LINK,
        /** Its content does not hash to its {@code hash}: it was changed after it closed. */
        HASH,
        /** Its hash is not signed by the key it names, or that key is not in the key set. */
        SIGNATURE;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The first period that does not hold: its {@code period} id, why, and what was found. */
    public record Break(String period, Reason reason, String detail) {
    }

    /**
     * What a check found.
     *
     * @param chained   the closed statements checked
     * @param unchained the closed statements before the chain, which cannot be checked
     * @param broken    the first period that does not hold, if any (then {@code chained} counts those before it)
     */
    public record Result(int chained, int unchained, Optional<Break> broken) {
    }

    private final Map<String, PublicKey> keys;
    private ChainLink last;
    private int chained;
    private int unchained;
    private int seen;
    private Break broken;

    /** A check that takes a cluster's statements one at a time ({@link #next}), in period order. */
    public ChainVerifier(Map<String, PublicKey> keys) {
        this.keys = keys;
    }

    /**
     * Checks {@code statements} (JSON values as {@link JsonText} reads them: the array of a statements download) against
     * {@code keys} (by key id).
     *
     * @throws IllegalArgumentException when an element is not a statement (no {@code period} or {@code state})
     */
    public static Result verify(List<?> statements, Map<String, PublicKey> keys) {
        ChainVerifier verifier = new ChainVerifier(keys);
        for (Object statement : statements) {
            if (verifier.next(statement).isPresent()) {
                break;
            }
        }
        return verifier.result();
    }

    /**
     * Takes the next statement; returns the first break found so far, after which later statements are not checked.
     *
     * @throws IllegalArgumentException when {@code element} is not a statement (no {@code period} or {@code state})
     */
    public Optional<Break> next(Object element) {
        if (broken != null) {
            return Optional.of(broken);
        }
        if (!(element instanceof Map<?, ?> m) || !(m.get("period") instanceof String period)
                || !(m.get("state") instanceof String state)) {
            throw new IllegalArgumentException("element " + seen + " is not a statement");
        }
        seen++;
        if (!state.equals("closed")) {
            return Optional.empty();
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> statement = (Map<String, Object>) m;
        Object member = statement.get(StatementChain.MEMBER);
        if (member == null) {
            if (last != null) {
                broken = new Break(period, Reason.LINK, "closed, without a chain, after the period of sequence "
                        + last.sequence());
            } else {
                unchained++;
            }
            return Optional.ofNullable(broken);
        }
        broken = check(period, statement, member, last, keys).orElse(null);
        if (broken == null) {
            last = link(member);
            chained++;
        }
        return Optional.ofNullable(broken);
    }

    /** What the statements taken so far showed. */
    public Result result() {
        return new Result(chained, unchained, Optional.ofNullable(broken));
    }

    private static Optional<Break> check(String period, Map<String, Object> statement, Object member, ChainLink last,
            Map<String, PublicKey> keys) {
        ChainLink link;
        try {
            link = link(member);
        } catch (IllegalArgumentException e) {
            return Optional.of(new Break(period, Reason.LINK, "its chain member is malformed: " + e.getMessage()));
        }
        long sequence = last == null ? 1 : last.sequence() + 1;
        String previous = last == null ? StatementChain.GENESIS : last.hash();
        if (link.sequence() != sequence) {
            return Optional
                    .of(new Break(period, Reason.LINK, "sequence " + link.sequence() + ", expected " + sequence));
        }
        if (!link.previous().equals(previous)) {
            return Optional.of(new Break(period, Reason.LINK, "previous " + link.previous() + ", expected "
                    + previous + (last == null ? " (genesis)" : " (the hash of sequence " + last.sequence() + ")")));
        }
        String hash = HexFormat.of().formatHex(StatementChain.hash(link.previous(), statement));
        if (!hash.equals(link.hash())) {
            return Optional.of(new Break(period, Reason.HASH, "its content hashes to " + hash + ", its chain says "
                    + link.hash()));
        }
        PublicKey key = keys.get(link.keyId());
        if (key == null) {
            return Optional.of(new Break(period, Reason.SIGNATURE, "signed by key " + link.keyId()
                    + ", which is not in the key set"));
        }
        if (!StatementChain.signed(link.hash(), link.signature(), key)) {
            return Optional.of(new Break(period, Reason.SIGNATURE, "its signature is not key " + link.keyId()
                    + "'s signature of its hash"));
        }
        return Optional.empty();
    }

    /** The {@link ChainLink} of a {@code chain} member. */
    private static ChainLink link(Object member) {
        if (!(member instanceof Map<?, ?> m) || !(m.get("sequence") instanceof Double sequence)
                || sequence != Math.rint(sequence) || !(m.get("previous") instanceof String previous)
                || !(m.get("hash") instanceof String hash) || !(m.get("signature") instanceof String signature)
                || !(m.get("keyId") instanceof String keyId)) {
            throw new IllegalArgumentException("expected {sequence, previous, hash, signature, keyId}");
        }
        return new ChainLink(sequence.longValue(), previous, hash, signature, keyId);
    }
}
