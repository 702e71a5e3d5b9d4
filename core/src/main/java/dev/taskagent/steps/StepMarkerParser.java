package dev.taskagent.steps;

import dev.taskagent.internal.Texts;
import dev.taskagent.llm.TextDeltaListener;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds step completion markers in a model's streamed output and tells a {@link StepMarkerListener},
 * once per step.
 *
 * <p>A marker is a line of its own of the form {@code ✓ STEP n: text}: the check mark U+2713 at the very
 * start of the line, one space, {@code STEP}, one space, 1 to 9 ASCII digits and a colon; the rest of the
 * line is the marker's text. A line ends with LF; a CR before it is dropped. The marker is reported when
 * its line ends, or, for the last line of a stream, when {@link #endOfStream()} is called. Markers may be
 * cut anywhere by chunk boundaries: {@code "✓ ST"} followed by {@code "EP 2: …"} is step 2, and {@code "✓
 * STEP 1"} followed by {@code "2: x"} is step 12.
 *
 * <p>Each step is reported once; a repeated marker is ignored. A marker for step 0, for a step beyond
 * {@code stepCount}, or with more than 9 digits is ignored with a warning, kept in {@link #warnings()};
 * the parser never throws for anything in the stream. A stream that ends in the middle of a marker
 * reports nothing for it. The first ignored marker of a parser is logged at WARN, the later ones at DEBUG,
 * so that a confused model shows once per run in the logs, not once per line.
 *
 * <p><b>Code blocks.</b> By default a marker inside a fenced code block of the output is ignored: a
 * model that shows the marker format in an example, or quotes an earlier answer, has not finished a step.
 * A line that starts (after any spaces or tabs) with three or more backticks or tildes opens a block (for
 * backticks, only when no backtick follows on the line); a line of at least as many of the same
 * character, with nothing but spaces and tabs after them, closes it; a block still open when a stream
 * ends closes with it. An ignored marker that would have ticked a step gets a warning. {@link
 * Builder#countMarkersInCodeBlocks()} counts markers in code blocks too. Fences are followed across chunk
 * boundaries like markers.
 *
 * <p>The lenient mode ({@link Builder#lenientMarkers()}, off by default) also accepts the check marks {@code ✔} and {@code ✅} (with or
 * without the emoji variation selector), spaces and tabs before the check mark, any spacing between the
 * parts, {@code Step} in any case, and bold: {@code **✓ STEP 1:** text} or {@code **✓ STEP 1**: text}.
 *
 * <p>Text arrives through {@link #accept(CharSequence)} (it also serves as a {@link TextDeltaListener});
 * bytes through {@link #acceptBytes(byte[], int, int)}, which decodes them with one streaming decoder, so
 * that a character split between two byte chunks is still read whole. (In UTF-8, US-ASCII and ISO-8859-1,
 * where a line feed byte is always a line feed, a line that cannot be a marker is skipped up to its line
 * feed without being decoded.) Memory stays bounded whatever the
 * input: a line that cannot be a marker is skipped without being kept, and a marker's text is kept up to
 * {@value #MAX_MARKER_TEXT_LENGTH} characters.
 *
 * <p>Not thread-safe: one parser reads one model's output on one thread. It may read several streams one
 * after the other (call {@link #endOfStream()} after each); steps reported in one are not reported again.
 */
public final class StepMarkerParser implements TextDeltaListener {
    /** The most characters of a marker's text kept; the rest of a longer line is dropped. */
    public static final int MAX_MARKER_TEXT_LENGTH = 1000;

    /** The most warnings kept for {@link #warnings()}; later ones are only logged. */
    public static final int MAX_WARNINGS_KEPT = 100;

    private static final Logger LOG = LoggerFactory.getLogger(StepMarkerParser.class);

    private static final String STRICT_PREFIX = "\u2713 STEP ";
    private static final int MAX_DIGITS = 9;
    private static final int BUFFER_SIZE = 8192;

    // Line states. Every state but SKIP and TEXT looks at one character at a time.
    private static final int LINE_START = 0;
    private static final int SKIP = 1;
    private static final int PREFIX = 2;
    private static final int DIGITS = 3;
    private static final int TEXT = 4;
    private static final int BOLD_OPEN = 5;
    private static final int CHECK = 6;
    private static final int AFTER_CHECK = 7;
    private static final int WORD = 8;
    private static final int AFTER_WORD = 9;
    private static final int BOLD_CLOSE = 10;
    private static final int COLON = 11;
    // Fence lines, followed only while markers in code blocks are ignored.
    private static final int LEADING = 12;
    private static final int FENCE_RUN = 13;
    private static final int FENCE_INFO = 14;
    private static final int FENCE_TAIL = 15;

    private final int stepCount;
    private final StepMarkerListener listener;
    private final boolean lenient;
    private final boolean fenceAware;
    private final Charset charset;
    private final boolean asciiTransparent;

    private final BitSet reported;
    private final List<Integer> completed = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final StringBuilder text = new StringBuilder();

    private int state = LINE_START;
    private int matched;
    private int digits;
    private int number;
    private int ignoredMarkers;

    // The fenced code block the output is in (its character, 0 outside one), and the fence-like run of
    // backticks or tildes at the start of the current line.
    private char openFenceChar;
    private int openFenceLength;
    private char runChar;
    private int runLength;

    private CharsetDecoder decoder;
    private ByteBuffer bytes;
    private CharBuffer chars;
    private byte[] byteScratch;

    private StepMarkerParser(Builder builder) {
        stepCount = builder.stepCount;
        listener = builder.listener;
        lenient = builder.lenient;
        fenceAware = !builder.countMarkersInCodeBlocks;
        charset = builder.charset;
        asciiTransparent = charset.equals(StandardCharsets.UTF_8)
                || charset.equals(StandardCharsets.US_ASCII)
                || charset.equals(StandardCharsets.ISO_8859_1);
        reported = new BitSet(stepCount + 1);
    }

    /**
     * Starts a parser for a document of {@code stepCount} steps.
     *
     * @param stepCount how many steps the task has; markers beyond it are ignored; at least 1
     * @param listener told about each step's first marker
     * @return a builder
     * @throws IllegalArgumentException if {@code stepCount} is less than 1
     * @throws NullPointerException if {@code listener} is null
     */
    public static Builder builder(int stepCount, StepMarkerListener listener) {
        return new Builder(stepCount, listener);
    }

    /**
     * Reads the next piece of text; same as {@link #accept(CharSequence)}.
     *
     * @param delta the next piece of the model's output
     */
    @Override
    public void onTextDelta(String delta) {
        accept(delta);
    }

    /**
     * Reads the next piece of text, which may end anywhere, also inside a marker.
     *
     * @param chunk the next piece of the output
     * @throws NullPointerException if {@code chunk} is null
     * @throws IllegalStateException if bytes of an incomplete character fed through {@code acceptBytes}
     *     are still waiting for the rest of the character
     */
    public void accept(CharSequence chunk) {
        Objects.requireNonNull(chunk, "chunk");
        checkNoPendingBytes();
        if (chunk instanceof String string) {
            acceptString(string);
        } else {
            for (int i = 0, n = chunk.length(); i < n; i++) {
                next(chunk.charAt(i));
            }
        }
    }

    /**
     * Reads the next piece of text from an array.
     *
     * @param chunk the array
     * @param offset where the piece starts
     * @param length how many characters it has
     * @throws IndexOutOfBoundsException if the range is not within the array
     * @throws IllegalStateException as for {@link #accept(CharSequence)}
     */
    public void accept(char[] chunk, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, chunk.length);
        checkNoPendingBytes();
        acceptChars(chunk, offset, offset + length);
    }

    /**
     * Reads the next bytes of an encoded stream (UTF-8 unless the builder chose another charset). A
     * character whose bytes are split between calls is decoded when its last byte arrives. Malformed
     * bytes are read as U+FFFD.
     *
     * @param chunk the array
     * @param offset where the bytes start
     * @param length how many bytes
     * @throws IndexOutOfBoundsException if the range is not within the array
     */
    public void acceptBytes(byte[] chunk, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, chunk.length);
        ensureDecoder();
        if (asciiTransparent) {
            acceptAsciiTransparentBytes(chunk, offset, offset + length);
        } else {
            decodeRange(chunk, offset, offset + length);
        }
    }

    /**
     * Reads the next bytes of an encoded stream, from the buffer's position to its limit; the buffer's
     * position moves to its limit.
     *
     * @param chunk the bytes
     */
    public void acceptBytes(ByteBuffer chunk) {
        if (chunk.hasArray()) {
            int length = chunk.remaining();
            acceptBytes(chunk.array(), chunk.arrayOffset() + chunk.position(), length);
            chunk.position(chunk.position() + length);
            return;
        }
        if (byteScratch == null) {
            byteScratch = new byte[BUFFER_SIZE];
        }
        while (chunk.hasRemaining()) {
            int n = Math.min(chunk.remaining(), byteScratch.length);
            chunk.get(byteScratch, 0, n);
            acceptBytes(byteScratch, 0, n);
        }
    }

    /**
     * Ends the current stream: decodes any bytes left (an incomplete character becomes U+FFFD), reports
     * a marker on the last line even without a line feed, and gets ready for another stream. Steps
     * reported so far stay reported.
     */
    public void endOfStream() {
        if (decoder != null) {
            bytes.flip();
            decode(true);
            while (decoder.flush(chars).isOverflow()) {
                drainChars();
            }
            drainChars();
            bytes.clear();
            decoder.reset();
        }
        endLine();
        openFenceChar = 0; // each stream is an answer of its own; a fence left open ends with it
    }

    /** @return the steps reported so far, in the order their markers arrived */
    public List<Integer> completedSteps() {
        return Collections.unmodifiableList(completed);
    }

    /**
     * Tells whether a step's marker was reported.
     *
     * @param stepNumber the step
     * @return true when its marker arrived
     */
    public boolean isReported(int stepNumber) {
        return stepNumber >= 1 && stepNumber <= stepCount && reported.get(stepNumber);
    }

    /**
     * Returns the warnings about ignored markers (step 0, out of range, too many digits, no colon, cut
     * off at the end of the stream), oldest first; at most {@value #MAX_WARNINGS_KEPT}.
     *
     * @return the warnings
     */
    public List<String> warnings() {
        return Collections.unmodifiableList(warnings);
    }

    /**
     * Counts the markers ignored so far, with a warning each: also those beyond the {@value
     * #MAX_WARNINGS_KEPT} that {@link #warnings()} keeps.
     *
     * @return the count
     */
    public int ignoredMarkerCount() {
        return ignoredMarkers;
    }

    /** @return true when the parser accepts the lenient variants */
    public boolean isLenient() {
        return lenient;
    }

    /** @return true when markers inside fenced code blocks count, false when they are ignored (the default) */
    public boolean countsMarkersInCodeBlocks() {
        return !fenceAware;
    }

    private void acceptString(String chunk) {
        int i = 0;
        int n = chunk.length();
        while (i < n) {
            if (state == SKIP) {
                int newline = chunk.indexOf('\n', i);
                if (newline < 0) {
                    return;
                }
                state = LINE_START;
                i = newline + 1;
            } else if (state == TEXT) {
                int newline = chunk.indexOf('\n', i);
                int stop = newline < 0 ? n : newline;
                appendText(chunk, i, stop);
                if (newline < 0) {
                    return;
                }
                endLine();
                i = newline + 1;
            } else {
                next(chunk.charAt(i++));
            }
        }
    }

    private void acceptChars(char[] chunk, int from, int to) {
        int i = from;
        while (i < to) {
            if (state == SKIP || state == TEXT) {
                int newline = i;
                while (newline < to && chunk[newline] != '\n') {
                    newline++;
                }
                if (state == TEXT) {
                    appendText(chunk, i, newline);
                }
                if (newline == to) {
                    return;
                }
                endLine();
                i = newline + 1;
            } else {
                next(chunk[i++]);
            }
        }
    }

    private void next(char c) {
        if (c == '\n') {
            endLine();
            return;
        }
        switch (state) {
            case SKIP -> {}
            case TEXT -> {
                if (text.length() < MAX_MARKER_TEXT_LENGTH && (text.length() > 0 || (c != ' ' && c != '\t'))) {
                    text.append(c);
                }
            }
            case LINE_START -> lineStart(c);
            case PREFIX -> {
                if (c == STRICT_PREFIX.charAt(matched)) {
                    if (++matched == STRICT_PREFIX.length()) {
                        startDigits();
                    }
                } else {
                    state = SKIP;
                }
            }
            case DIGITS -> digit(c);
            case BOLD_OPEN -> state = c == '*' ? CHECK : SKIP;
            case CHECK -> state = isCheckMark(c) ? AFTER_CHECK : SKIP;
            case AFTER_CHECK -> {
                if (c == 'S' || c == 's') {
                    state = WORD;
                    matched = 1;
                } else if (c != '\uFE0F' && c != ' ' && c != '\t') {
                    state = SKIP;
                }
            }
            case WORD -> {
                if (Character.toUpperCase(c) == "STEP".charAt(matched)) {
                    if (++matched == 4) {
                        state = AFTER_WORD;
                    }
                } else {
                    state = SKIP;
                }
            }
            case AFTER_WORD -> {
                if (c >= '0' && c <= '9') {
                    startDigits();
                    digit(c);
                } else if (c != ' ' && c != '\t') {
                    state = SKIP;
                }
            }
            case BOLD_CLOSE -> state = c == '*' ? COLON : SKIP;
            case LEADING -> afterLeadingBlanks(c);
            case FENCE_RUN -> fenceRun(c);
            case FENCE_INFO -> {
                if (c == '`') {
                    state = SKIP; // a backtick after the opening run: inline code, not a fence
                }
            }
            case FENCE_TAIL -> {
                if (c != ' ' && c != '\t' && c != '\r') {
                    state = SKIP;
                }
            }
            case COLON -> {
                if (c == ':') {
                    startText();
                } else {
                    warnNoColon();
                    state = SKIP;
                }
            }
            default -> throw new IllegalStateException("unknown state " + state);
        }
    }

    private void lineStart(char c) {
        if (c == ' ' || c == '\t') {
            state = fenceAware || lenient ? LEADING : SKIP;
        } else if (fenceAware && (c == '`' || c == '~')) {
            startFenceRun(c);
        } else if (lenient) {
            lenientMarkerStart(c);
        } else if (c == '\u2713') {
            state = PREFIX;
            matched = 1;
        } else {
            state = SKIP;
        }
    }

    /** After spaces and tabs at the start of a line: a fence (at any indentation), or a lenient marker. */
    private void afterLeadingBlanks(char c) {
        if (c == ' ' || c == '\t') {
            return;
        }
        if (fenceAware && (c == '`' || c == '~')) {
            startFenceRun(c);
        } else if (lenient) {
            lenientMarkerStart(c);
        } else {
            state = SKIP;
        }
    }

    private void lenientMarkerStart(char c) {
        if (c == '*') {
            state = BOLD_OPEN;
        } else if (isCheckMark(c)) {
            state = AFTER_CHECK;
        } else {
            state = SKIP;
        }
    }

    private void startFenceRun(char c) {
        state = FENCE_RUN;
        runChar = c;
        runLength = 1;
    }

    /**
     * Reads the run of backticks or tildes a line starts with. Three or more open a code block, unless a
     * backtick follows a run of backticks on the same line, or the run is followed right away by the other
     * fence character; inside a code block, a run of its character at least as long, with nothing but
     * spaces and tabs after it, closes the block.
     */
    private void fenceRun(char c) {
        if (c == runChar) {
            if (runLength < Integer.MAX_VALUE) {
                runLength++;
            }
        } else if (runLength < 3 || c == '`' || c == '~') {
            state = SKIP;
        } else if (openFenceChar != 0) {
            state = closesFence() && (c == ' ' || c == '\t' || c == '\r') ? FENCE_TAIL : SKIP;
        } else if (runChar == '`') {
            state = FENCE_INFO;
        } else {
            openFence();
            state = SKIP; // the rest of the line is the info string
        }
    }

    private boolean closesFence() {
        return runChar == openFenceChar && runLength >= openFenceLength;
    }

    private void openFence() {
        openFenceChar = runChar;
        openFenceLength = runLength;
    }

    private static boolean isCheckMark(char c) {
        return c == '\u2713' || c == '\u2714' || c == '\u2705';
    }

    private void startDigits() {
        state = DIGITS;
        digits = 0;
        number = 0;
    }

    private void digit(char c) {
        if (c >= '0' && c <= '9') {
            if (digits < MAX_DIGITS) {
                number = number * 10 + (c - '0');
            }
            if (digits < Integer.MAX_VALUE) {
                digits++;
            }
        } else if (c == ':' && digits > 0) {
            startText();
        } else if (lenient && c == '*' && digits > 0) {
            state = BOLD_CLOSE;
        } else {
            if (digits > 0) {
                warnNoColon();
            }
            state = SKIP;
        }
    }

    private void startText() {
        state = TEXT;
        text.setLength(0);
    }

    private void appendText(CharSequence chunk, int from, int to) {
        while (text.length() == 0 && from < to && (chunk.charAt(from) == ' ' || chunk.charAt(from) == '\t')) {
            from++; // the text's limit counts from its first character, not from the blanks after the colon
        }
        int room = MAX_MARKER_TEXT_LENGTH - text.length();
        if (room > 0) {
            text.append(chunk, from, Math.min(to, from + room));
        }
    }

    private void appendText(char[] chunk, int from, int to) {
        while (text.length() == 0 && from < to && (chunk[from] == ' ' || chunk[from] == '\t')) {
            from++;
        }
        int room = MAX_MARKER_TEXT_LENGTH - text.length();
        if (room > 0) {
            text.append(chunk, from, Math.min(to - from, room));
        }
    }

    private void endLine() {
        int ended = state;
        state = LINE_START;
        switch (ended) {
            case TEXT -> complete();
            case FENCE_RUN -> {
                if (runLength >= 3 && openFenceChar == 0) {
                    openFence();
                } else if (runLength >= 3 && closesFence()) {
                    openFenceChar = 0;
                }
            }
            case FENCE_INFO -> openFence();
            case FENCE_TAIL -> openFenceChar = 0;
            default -> {
                if ((ended == DIGITS && digits > 0) || ended == BOLD_CLOSE || ended == COLON) {
                    warnNoColon();
                }
            }
        }
    }

    private void complete() {
        String markerText = markerText();
        if (openFenceChar != 0) {
            ignoreInCodeBlock();
        } else if (digits > MAX_DIGITS) {
            ignore("Ignored a step marker whose number has " + digits + " digits; steps are numbered 1.." + stepCount);
        } else if (number == 0) {
            ignore("Ignored the marker for step 0; steps are numbered 1.." + stepCount);
        } else if (number > stepCount) {
            ignore("Ignored the marker for step " + number + "; the task has " + stepCount + " step"
                    + (stepCount == 1 ? "" : "s") + " (1.." + stepCount + ")");
        } else if (reported.get(number)) {
            LOG.debug("Step {} was already reported; its repeated marker is ignored", number);
        } else {
            reported.set(number);
            completed.add(number);
            listener.onStepMarker(number, markerText);
        }
    }

    private String markerText() {
        String result = text.toString().strip();
        text.setLength(0);
        if (lenient) {
            if (result.startsWith("**")) {
                result = result.substring(2).strip();
            }
            if (result.endsWith("**")) {
                result = result.substring(0, result.length() - 2).strip();
            }
        }
        return result;
    }

    /**
     * A marker inside a fenced code block is quoted, not reported. Only a marker that would have ticked a
     * step gets a warning: it may be the model's own marker, written in the wrong place.
     */
    private void ignoreInCodeBlock() {
        if (digits <= MAX_DIGITS && number >= 1 && number <= stepCount && !reported.get(number)) {
            ignore("Ignored the marker for step " + number + ": it is inside a fenced code block, where markers"
                    + " are quoted, not reported; write it on a line of its own outside code blocks");
        } else {
            LOG.debug("Ignored a step marker inside a fenced code block");
        }
    }

    private void warnNoColon() {
        if (openFenceChar != 0) {
            LOG.debug("Ignored a step marker without its colon inside a fenced code block");
            return;
        }
        ignore("Ignored a step marker without the colon after its number; write it as '\u2713 STEP n: text'");
    }

    /**
     * Records an ignored marker in {@link #warnings()} and logs it: the first of this parser at WARN, so that
     * a run with a confused model shows once in the logs, and the later ones at DEBUG.
     *
     * @param warning what was ignored, and why
     */
    void ignore(String warning) {
        ignoredMarkers++;
        if (ignoredMarkers == 1) {
            LOG.warn("{} (later ignored step markers of this run are logged at DEBUG)", Texts.forLog(warning));
        } else {
            LOG.debug("{}", Texts.forLog(warning));
        }
        if (warnings.size() < MAX_WARNINGS_KEPT) {
            warnings.add(warning);
        }
    }

    /**
     * Reads bytes of a charset in which every ASCII byte stands for its ASCII character and never occurs
     * inside a multi-byte character (UTF-8, US-ASCII, ISO-8859-1). A line that cannot be a marker is then
     * skipped byte by byte up to its line feed without being decoded, and ASCII bytes at a line's start
     * go straight to the state machine; only the rest (a check mark, a marker's text) goes through the
     * decoder.
     */
    private void acceptAsciiTransparentBytes(byte[] chunk, int from, int to) {
        int i = from;
        while (i < to) {
            if (state == SKIP) {
                if (bytes.position() > 0) {
                    // The tail of a character inside a skipped line: never needed.
                    bytes.clear();
                    decoder.reset();
                }
                int newline = indexOfNewline(chunk, i, to);
                if (newline < 0) {
                    return;
                }
                state = LINE_START;
                i = newline + 1;
            } else if (state == TEXT) {
                int newline = indexOfNewline(chunk, i, to);
                int stop = newline < 0 ? to : newline + 1;
                decodeRange(chunk, i, stop);
                i = stop;
            } else if (chunk[i] >= 0 && bytes.position() == 0) {
                next((char) chunk[i++]);
            } else {
                int stop = i + 1;
                while (stop < to && chunk[stop] < 0) {
                    stop++;
                }
                decodeRange(chunk, i, stop);
                i = stop;
            }
        }
    }

    private static int indexOfNewline(byte[] chunk, int from, int to) {
        for (int i = from; i < to; i++) {
            if (chunk[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** Decodes bytes with the stream's one decoder and reads the characters; keeps an incomplete tail. */
    private void decodeRange(byte[] chunk, int from, int to) {
        while (from < to) {
            int n = Math.min(to - from, bytes.remaining());
            bytes.put(chunk, from, n);
            from += n;
            bytes.flip();
            try {
                decode(false);
            } finally {
                bytes.compact(); // also when the listener threw: the buffer stays ready for the next bytes
            }
        }
    }

    private void ensureDecoder() {
        if (decoder == null) {
            decoder = charset.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE);
            bytes = ByteBuffer.allocate(BUFFER_SIZE);
            chars = CharBuffer.allocate(BUFFER_SIZE);
        }
    }

    private void decode(boolean endOfInput) {
        while (true) {
            CoderResult result = decoder.decode(bytes, chars, endOfInput);
            drainChars();
            if (result.isUnderflow()) {
                return;
            }
        }
    }

    private void drainChars() {
        chars.flip();
        try {
            if (chars.hasRemaining()) {
                acceptChars(chars.array(), chars.arrayOffset() + chars.position(), chars.arrayOffset() + chars.limit());
            }
        } finally {
            chars.clear();
        }
    }

    private void checkNoPendingBytes() {
        if (bytes != null && bytes.position() > 0) {
            throw new IllegalStateException("Text arrived while " + bytes.position()
                    + " bytes of an incomplete character are waiting for the rest of it; feed one stream either"
                    + " as bytes or as text, or call endOfStream() in between");
        }
    }

    /** Configures a {@link StepMarkerParser}. Not thread-safe. */
    public static final class Builder {
        private final int stepCount;
        private final StepMarkerListener listener;
        private boolean lenient;
        private boolean countMarkersInCodeBlocks;
        private Charset charset = StandardCharsets.UTF_8;

        private Builder(int stepCount, StepMarkerListener listener) {
            if (stepCount < 1) {
                throw new IllegalArgumentException("stepCount must be at least 1, was " + stepCount);
            }
            this.stepCount = stepCount;
            this.listener = Objects.requireNonNull(listener, "listener");
        }

        /**
         * Accepts the common variants of the marker too (see the class description). By default only
         * {@code ✓ STEP n: text} counts.
         *
         * @return this builder
         */
        public Builder lenientMarkers() {
            lenient = true;
            return this;
        }

        /**
         * Counts markers inside fenced code blocks too. By default they are ignored, with a warning for a
         * marker that would have ticked a step: a model that shows the marker format in an example, or
         * quotes an earlier answer, has not finished a step. Use this for a model that puts its whole
         * answer in a code block.
         *
         * @return this builder
         */
        public Builder countMarkersInCodeBlocks() {
            countMarkersInCodeBlocks = true;
            return this;
        }

        /**
         * Sets the encoding of the byte streams fed to {@code acceptBytes}. UTF-8 by default.
         *
         * @param value the charset
         * @return this builder
         */
        public Builder charset(Charset value) {
            charset = Objects.requireNonNull(value, "charset");
            return this;
        }

        /** @return a new parser */
        public StepMarkerParser build() {
            return new StepMarkerParser(this);
        }
    }
}
