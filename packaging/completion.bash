
# The completion function. It reads only the lists above (no process is started on a TAB).
# shellcheck disable=SC2154 # the lists are written above this file by gen-completion.sh
# Bash splits words at '=' and ':' (COMP_WORDBREAKS), so "--on-error=sk" arrives as the words
# "--on-error" "=" "sk", and "-o canal.flavor=o" as "-o" "canal.flavor" "=" "o".

# _rowcast_offer WORDS : COMPREPLY = the words starting with the current word; no space after
# a word that asks for more ("file:", "--on-error=", "canal.flavor=").
_rowcast_offer() {
    local w
    COMPREPLY=()
    for w in $1; do
        [[ $w == "$cur"* ]] && COMPREPLY+=("$w")
    done
    if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *[=:/] ]]; then
        compopt -o nospace 2>/dev/null
    fi
    return 0
}

# _rowcast_files : COMPREPLY = the files and directories starting with the current word
_rowcast_files() {
    compopt -o filenames 2>/dev/null
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
}

# _rowcast_named_formats : the formats given with --from and --to so far, lower-case
_rowcast_named_formats() {
    local i
    REPLY=
    for ((i = 2; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
        --from | --to) REPLY+=" ${COMP_WORDS[i + 1],,}" ;;
        esac
    done
}

# _rowcast_run OPTIONS KEYS FIRST : convert's and capture's words. OPTIONS: the command's
# options; KEYS: -o keys besides the formats' (capture's postgres.*); FIRST: what a word that
# is not an option's is (files for convert, the URL's scheme for capture's first)
_rowcast_run() {
    local fmt keys named
    if [[ $prev == "=" && $COMP_CWORD -ge 4 && ${COMP_WORDS[COMP_CWORD - 3]} == "-o" ]]; then
        _rowcast_key_words "${COMP_WORDS[COMP_CWORD - 2]}"
        _rowcast_offer "$REPLY"
        return
    fi
    case $opt in
    --from) _rowcast_offer "$_rowcast_decoders" ;;
    --to) _rowcast_offer "$_rowcast_encoders" ;;
    -o)
        # the options of the formats named so far; all of them when none is
        _rowcast_named_formats
        named=$REPLY keys=$2
        [[ -n $named ]] || keys+=" $_rowcast_all_keys"
        for fmt in $named; do
            _rowcast_format_keys "$fmt"
            keys+=" $REPLY"
        done
        _rowcast_offer "$keys"
        ;;
    *)
        _rowcast_option_words "$opt"
        if [[ $REPLY == "@files" ]]; then
            _rowcast_files
        elif [[ -n $REPLY ]]; then
            _rowcast_offer "$REPLY"
        elif [[ $cur == -* ]]; then
            _rowcast_offer "$1"
        elif [[ $prev == ":" && ${COMP_WORDS[COMP_CWORD - 2]} == @(file|dead-letter) ]]; then
            _rowcast_files # file:PATH, dead-letter:PATH
        elif [[ " $_rowcast_value_options " == *" $opt "* ]]; then
            COMPREPLY=() # the value of an option that takes free text (--topic TEMPLATE)
        elif [[ $3 == files ]]; then
            _rowcast_files # input FILEs
        elif [[ $COMP_CWORD -eq 2 ]]; then
            _rowcast_offer "postgres:// mysql:// mariadb://" # capture's URL
        else
            COMPREPLY=()
        fi
        ;;
    esac
}

_rowcast() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} opt REPLY
    opt=$prev
    # "--on-error" "=" "": the option is the word before the '='
    [[ $prev == "=" && $COMP_CWORD -ge 3 ]] && opt=${COMP_WORDS[COMP_CWORD - 2]}
    if [[ $COMP_CWORD -eq 1 ]]; then
        _rowcast_offer "$_rowcast_commands"
        return
    fi
    case ${COMP_WORDS[1]} in
    convert) _rowcast_run "$_rowcast_convert_options" "" files ;;
    capture) _rowcast_run "$_rowcast_capture_options" "$_rowcast_capture_keys" url ;;
    *)
        _rowcast_command_words "${COMP_WORDS[1]}"
        _rowcast_offer "$REPLY"
        ;;
    esac
}
complete -F _rowcast rowcast
