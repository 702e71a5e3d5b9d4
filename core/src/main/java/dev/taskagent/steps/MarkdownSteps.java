package dev.taskagent.steps;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A task's steps: a Markdown document whose GitHub-flavoured task-list items are the steps.
 *
 * <pre>{@code
 * - [ ] Research family-friendly attractions in Bangkok for kids 5 & 3
 * - [ ] Send the list to Hanan on WhatsApp
 * }</pre>
 *
 * <p><b>What is a step.</b> A list item (bullet {@code -}, {@code *}, {@code +}, or ordered {@code 1.} /
 * {@code 1)} with 1 to 9 digits) followed by whitespace, then a box {@code [ ]} (unchecked), {@code [x]}
 * or {@code [X]} (checked), then whitespace and a description that is not blank. Nested items are steps
 * too. Steps are numbered 1..n in document order across all depths. Not steps: lines inside fenced code
 * blocks ({@code ```} or {@code ~~~}; a fence is closed only by a fence of the same character and at
 * least the same length, and an unclosed fence runs to the end of the document), lines inside HTML
 * comments (a comment starts a line and ends on the line that holds {@code -->}), block quotes, indented
 * code, and items whose box is malformed ({@code [-]}, {@code [  ]}, a tab inside the box) or that lack
 * the space after the bullet or after the box. The step's text is the rest of the item's first line;
 * the box must be on the same line as the list marker. Line endings may be LF, CRLF or CR; a leading
 * byte order mark is skipped.
 *
 * <p><b>Updating.</b> {@link #markDone(int)} and {@link #markUndone(int)} return a new instance whose
 * document differs from this one in exactly one character (the one inside the box); line endings, a
 * missing final newline, trailing spaces, a byte order mark and any non-ASCII text stay as they were.
 * Marking a checked step done, or an unchecked step undone, returns this instance unchanged.
 *
 * <p><b>Cost.</b> Parsing is one pass over the document, linear in its length whatever the number of
 * steps, their length or their nesting. The parsed instance keeps the offset of every box, so updating a
 * step finds its character at once and costs one copy of the document.
 *
 * <p>Immutable and thread-safe.
 */
public final class MarkdownSteps {
    private final String document;
    private final List<Step> steps;
    private final int doneCount;

    private MarkdownSteps(String document, List<Step> steps, int doneCount) {
        this.document = document;
        this.steps = steps;
        this.doneCount = doneCount;
    }

    /**
     * Parses a Markdown document and finds its steps.
     *
     * @param document the document; any text, possibly without steps
     * @return the parsed document
     * @throws NullPointerException if {@code document} is null
     */
    public static MarkdownSteps parse(String document) {
        Objects.requireNonNull(document, "document");
        return new Parser(document).parse();
    }

    /**
     * Writes a checklist with one unchecked top-level step per text, one per line ({@code - [ ] text}
     * followed by a line feed). Line breaks inside a text are replaced by spaces and the text is trimmed,
     * so that each text stays one step.
     *
     * @param stepTexts the steps' descriptions, in order; at least one, none blank
     * @return the checklist, parsed; it has exactly {@code stepTexts.size()} steps
     * @throws NullPointerException if the list or one of its texts is null
     * @throws IllegalArgumentException if the list is empty or a text is blank
     */
    public static MarkdownSteps checklist(List<String> stepTexts) {
        Objects.requireNonNull(stepTexts, "stepTexts");
        if (stepTexts.isEmpty()) {
            throw new IllegalArgumentException("A checklist needs at least one step; the list of step texts is empty");
        }
        StringBuilder document = new StringBuilder();
        for (int i = 0; i < stepTexts.size(); i++) {
            String text = Objects.requireNonNull(stepTexts.get(i), "step text " + (i + 1));
            String oneLine = text.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
            if (oneLine.isEmpty()) {
                throw new IllegalArgumentException(
                        "Step " + (i + 1) + " of " + stepTexts.size() + " is blank; give every step a description");
            }
            document.append("- [ ] ").append(oneLine).append('\n');
        }
        return parse(document.toString());
    }

    /** @return the document, exactly as parsed or updated */
    public String document() {
        return document;
    }

    /** @return the steps in document order, step 1 first; empty when the document has none */
    public List<Step> steps() {
        return steps;
    }

    /** @return the number of steps */
    public int total() {
        return steps.size();
    }

    /** @return the number of checked steps */
    public int done() {
        return doneCount;
    }

    /** @return true when the document has no step */
    public boolean isEmpty() {
        return steps.isEmpty();
    }

    /** @return true when the document has steps and every one is checked */
    public boolean allDone() {
        return !steps.isEmpty() && doneCount == steps.size();
    }

    /**
     * Returns one step.
     *
     * @param number the step's number, 1..{@link #total()}
     * @return the step
     * @throws IllegalArgumentException if there is no step with that number
     */
    public Step step(int number) {
        checkNumber(number);
        return steps.get(number - 1);
    }

    /**
     * Tells whether a step with this number exists.
     *
     * @param number any number
     * @return true when {@code number} is within 1..{@link #total()}
     */
    public boolean hasStep(int number) {
        return number >= 1 && number <= steps.size();
    }

    /**
     * Finds the first step that is not checked, in document order.
     *
     * @return the step, or empty when every step is checked or there is none
     */
    public Optional<Step> firstUnchecked() {
        if (doneCount == steps.size()) {
            return Optional.empty();
        }
        for (Step step : steps) {
            if (!step.checked()) {
                return Optional.of(step);
            }
        }
        return Optional.empty();
    }

    /** @return the steps that are not checked, in document order */
    public List<Step> unchecked() {
        List<Step> result = new ArrayList<>(steps.size() - doneCount);
        for (Step step : steps) {
            if (!step.checked()) {
                result.add(step);
            }
        }
        return Collections.unmodifiableList(result);
    }

    /**
     * Ticks a step: {@code [ ]} becomes {@code [x]}; nothing else of the document changes.
     *
     * @param number the step's number, 1..{@link #total()}
     * @return the updated document, or this instance when the step is already checked
     * @throws IllegalArgumentException if there is no step with that number
     */
    public MarkdownSteps markDone(int number) {
        return mark(number, true);
    }

    /**
     * Unticks a step: {@code [x]} or {@code [X]} becomes {@code [ ]}; nothing else of the document changes.
     *
     * @param number the step's number, 1..{@link #total()}
     * @return the updated document, or this instance when the step is not checked
     * @throws IllegalArgumentException if there is no step with that number
     */
    public MarkdownSteps markUndone(int number) {
        return mark(number, false);
    }

    private MarkdownSteps mark(int number, boolean checked) {
        Step step = step(number);
        if (step.checked() == checked) {
            return this;
        }
        // A StringBuilder keeps the document's compact (Latin-1) form where toCharArray() would widen it.
        StringBuilder updatedDocument = new StringBuilder(document);
        updatedDocument.setCharAt(step.boxOffset() + 1, checked ? 'x' : ' ');
        List<Step> updated = new ArrayList<>(steps);
        updated.set(number - 1, step.withChecked(checked));
        return new MarkdownSteps(
                updatedDocument.toString(), Collections.unmodifiableList(updated), doneCount + (checked ? 1 : -1));
    }

    /**
     * Renders the steps for a model's prompt, one per line with its number and box, nested steps
     * indented by three spaces per depth. The numbers are those the {@code ✓ STEP n:} markers use.
     *
     * <pre>
     * 1. [x] Research family-friendly attractions in Bangkok for kids 5 &amp; 3
     * 2. [ ] Send the list to Hanan on WhatsApp
     * </pre>
     *
     * @return the rendering, each line ending with a line feed; empty when there are no steps
     */
    public String renderForPrompt() {
        StringBuilder out = new StringBuilder();
        for (Step step : steps) {
            out.append("   ".repeat(step.depth()))
                    .append(step.number())
                    .append(step.checked() ? ". [x] " : ". [ ] ")
                    .append(step.text())
                    .append('\n');
        }
        return out.toString();
    }

    /**
     * Describes the progress in the form task listings show.
     *
     * @return for example {@code Steps 1/2}
     */
    public String progressLabel() {
        return "Steps " + doneCount + "/" + steps.size();
    }

    private void checkNumber(int number) {
        if (!hasStep(number)) {
            throw new IllegalArgumentException(
                    steps.isEmpty()
                            ? "There is no step " + number + ": the document has no steps"
                            : "There is no step " + number + ": the document has " + steps.size() + " steps (1.."
                                    + steps.size() + ")");
        }
    }

    /** Two instances are equal when their documents are. */
    @Override
    public boolean equals(Object other) {
        return other instanceof MarkdownSteps that && document.equals(that.document);
    }

    @Override
    public int hashCode() {
        return document.hashCode();
    }

    @Override
    public String toString() {
        return "MarkdownSteps[" + doneCount + "/" + steps.size() + " done, " + document.length() + " chars]";
    }

    /**
     * One pass over the document, line by line, with just enough of CommonMark's block structure to tell
     * task-list items from look-alikes: fences, HTML comments, block quotes, indented code and the list
     * nesting that gives each item its depth.
     */
    private static final class Parser {
        private final String doc;
        private final int length;

        private final List<Step> steps = new ArrayList<>();
        private int done;
        private int lineNumber;

        /** The open fence's character, or 0 outside fenced code. */
        private char fenceChar;

        private int fenceLength;
        private boolean inComment;
        /** True when the previous line was paragraph text, which a more indented line continues. */
        private boolean inParagraph;
        /** Content columns of the open list items, outermost first; strictly increasing. */
        private int[] itemColumns = new int[16];

        private int openItems;

        Parser(String doc) {
            this.doc = doc;
            this.length = doc.length();
        }

        MarkdownSteps parse() {
            int position = length > 0 && doc.charAt(0) == '\uFEFF' ? 1 : 0;
            boolean onlyLineFeeds = doc.indexOf('\r') < 0;
            while (position < length) {
                int end = onlyLineFeeds ? doc.indexOf('\n', position) : lineEnd(position);
                if (end < 0) {
                    end = length;
                }
                lineNumber++;
                line(position, end);
                if (end == length) {
                    break;
                }
                position =
                        doc.charAt(end) == '\r' && end + 1 < length && doc.charAt(end + 1) == '\n' ? end + 2 : end + 1;
            }
            return new MarkdownSteps(doc, Collections.unmodifiableList(steps), done);
        }

        /** Finds the end of a line that may end with CR, CRLF or LF. */
        private int lineEnd(int from) {
            for (int i = from; i < length; i++) {
                char c = doc.charAt(i);
                if (c == '\n' || c == '\r') {
                    return i;
                }
            }
            return length;
        }

        private void line(int start, int end) {
            if (fenceChar != 0) {
                if (closesFence(start, end)) {
                    fenceChar = 0;
                }
                return;
            }
            if (inComment) {
                if (contains(start, end, "-->")) {
                    inComment = false;
                }
                return;
            }
            int i = start;
            int column = 0;
            while (i < end) {
                char c = doc.charAt(i);
                if (c == ' ') {
                    column++;
                } else if (c == '\t') {
                    column += 4 - column % 4;
                } else {
                    break;
                }
                i++;
            }
            if (i == end) {
                inParagraph = false;
                return;
            }
            int containing = itemsContaining(column);
            int relativeIndent = column - (containing == 0 ? 0 : itemColumns[containing - 1]);
            if (relativeIndent >= 4) {
                // Paragraph continuation, or indented code inside the deepest item that contains it.
                if (!inParagraph) {
                    openItems = containing;
                }
                return;
            }
            block(i, end, column, containing);
        }

        private void block(int i, int end, int column, int containing) {
            char c = doc.charAt(i);
            if (c == '>'
                    || opensFence(i, end)
                    || opensComment(i, end)
                    || isThematicBreak(i, end)
                    || isHeading(i, end)) {
                openItems = containing;
                inParagraph = false;
                return;
            }
            int markerEnd = listMarkerEnd(i, end);
            if (markerEnd < 0) {
                if (!inParagraph) {
                    openItems = containing;
                    inParagraph = true;
                } // else: a lazy continuation line, which keeps the open items
                return;
            }
            openItems = containing;
            listItem(i, markerEnd, column, end);
        }

        private void listItem(int markerStart, int markerEnd, int markerColumn, int end) {
            while (true) {
                int afterMarker = markerColumn + (markerEnd - markerStart);
                int j = markerEnd;
                int column = afterMarker;
                while (j < end && isSpaceOrTab(doc.charAt(j))) {
                    column = doc.charAt(j) == '\t' ? column + 4 - column % 4 : column + 1;
                    j++;
                }
                if (j == end) {
                    pushItem(afterMarker + 1); // an empty item
                    inParagraph = false;
                    return;
                }
                boolean codeContent = column - afterMarker > 4;
                pushItem(codeContent ? afterMarker + 1 : column);
                inParagraph = !codeContent;
                if (codeContent) {
                    return;
                }
                if (doc.charAt(j) == '>' || opensFence(j, end) || opensComment(j, end)) {
                    inParagraph = false;
                    return;
                }
                int nestedMarkerEnd = isThematicBreak(j, end) ? -1 : listMarkerEnd(j, end);
                if (nestedMarkerEnd < 0) {
                    taskItem(j, end, openItems - 1);
                    return;
                }
                markerStart = j; // a list item that starts with another list item: "- - [ ] step"
                markerEnd = nestedMarkerEnd;
                markerColumn = column;
            }
        }

        private void taskItem(int j, int end, int depth) {
            if (j + 3 >= end || doc.charAt(j) != '[' || doc.charAt(j + 2) != ']') {
                return;
            }
            char box = doc.charAt(j + 1);
            if (box != ' ' && box != 'x' && box != 'X') {
                return;
            }
            if (!isSpaceOrTab(doc.charAt(j + 3))) {
                return;
            }
            String text = doc.substring(j + 4, end).strip();
            if (text.isEmpty()) {
                return;
            }
            boolean checked = box != ' ';
            steps.add(new Step(steps.size() + 1, text, checked, depth, lineNumber, j));
            if (checked) {
                done++;
            }
        }

        /** Returns how many open items contain a line indented to this column (binary search). */
        private int itemsContaining(int column) {
            int low = 0;
            int high = openItems;
            while (low < high) {
                int middle = (low + high) >>> 1;
                if (itemColumns[middle] <= column) {
                    low = middle + 1;
                } else {
                    high = middle;
                }
            }
            return low;
        }

        private void pushItem(int contentColumn) {
            if (openItems == itemColumns.length) {
                itemColumns = Arrays.copyOf(itemColumns, itemColumns.length * 2);
            }
            itemColumns[openItems++] = contentColumn;
        }

        /** Returns the index after a list marker and the whitespace or line end that must follow it, or -1. */
        private int listMarkerEnd(int i, int end) {
            char c = doc.charAt(i);
            int after;
            if (c == '-' || c == '*' || c == '+') {
                after = i + 1;
            } else {
                int j = i;
                while (j < end && j - i < 10 && isDigit(doc.charAt(j))) {
                    j++;
                }
                int digits = j - i;
                if (digits < 1 || digits > 9 || j == end || (doc.charAt(j) != '.' && doc.charAt(j) != ')')) {
                    return -1;
                }
                after = j + 1;
            }
            return after == end || isSpaceOrTab(doc.charAt(after)) ? after : -1;
        }

        private boolean opensFence(int i, int end) {
            char c = doc.charAt(i);
            if (c != '`' && c != '~') {
                return false;
            }
            int j = i;
            while (j < end && doc.charAt(j) == c) {
                j++;
            }
            int run = j - i;
            if (run < 3) {
                return false;
            }
            if (c == '`') {
                for (int k = j; k < end; k++) {
                    if (doc.charAt(k) == '`') {
                        return false; // inline code, not a fence
                    }
                }
            }
            fenceChar = c;
            fenceLength = run;
            return true;
        }

        private boolean closesFence(int start, int end) {
            int i = start;
            while (i < end && isSpaceOrTab(doc.charAt(i))) {
                i++;
            }
            int j = i;
            while (j < end && doc.charAt(j) == fenceChar) {
                j++;
            }
            if (j - i < fenceLength) {
                return false;
            }
            while (j < end && isSpaceOrTab(doc.charAt(j))) {
                j++;
            }
            return j == end;
        }

        private boolean opensComment(int i, int end) {
            if (end - i < 4 || !doc.startsWith("<!--", i)) {
                return false;
            }
            // "<!-->" and "<!--->" close themselves, as in CommonMark; so search from the first dash.
            inComment = !contains(i + 2, end, "-->");
            return true;
        }

        private boolean isThematicBreak(int i, int end) {
            char c = doc.charAt(i);
            if (c != '-' && c != '*' && c != '_') {
                return false;
            }
            int count = 0;
            for (int j = i; j < end; j++) {
                char d = doc.charAt(j);
                if (d == c) {
                    count++;
                } else if (!isSpaceOrTab(d)) {
                    return false;
                }
            }
            return count >= 3;
        }

        private boolean isHeading(int i, int end) {
            int j = i;
            while (j < end && doc.charAt(j) == '#') {
                j++;
            }
            int level = j - i;
            return level >= 1 && level <= 6 && (j == end || isSpaceOrTab(doc.charAt(j)));
        }

        /** Searches only within [from, end), so that scanning stays linear in the document. */
        private boolean contains(int from, int end, String needle) {
            int last = end - needle.length();
            char first = needle.charAt(0);
            for (int i = from; i <= last; i++) {
                if (doc.charAt(i) == first && doc.startsWith(needle, i)) {
                    return true;
                }
            }
            return false;
        }

        private static boolean isSpaceOrTab(char c) {
            return c == ' ' || c == '\t';
        }

        private static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }
    }
}
