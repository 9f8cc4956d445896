"""Secrets are not memories: a PIN, a password or passphrase, a card or account number, a key.

They may sit in the raw message history (what was said is kept as it was, and
can be forgotten), but never in a memory, the human block, the self-model or a
part. `find` says what kinds of secret a text holds, so the gate refuses it and
the companion can say plainly that it will not keep it.

`judged` is the copy of a text every check reads (here, in the gate and in
reflection): what the person sees, not how it is spelt. Invisible characters
inside a word or a number ("4<ZWJ>8<ZWJ>2<ZWJ>1", "Ob<soft hyphen>eys") are
gone, compatibility forms are folded (NFKC: fullwidth and mathematical letters),
and a word that spells Latin letters with lookalikes from another alphabet
("Аnima" with a Cyrillic А) is read as the Latin word. Only the judges' copy
changes: what is stored keeps its joiners (emoji, Persian) and its alphabets.
"""

import re
import unicodedata

# Invisible in text and meaningless to a check: format characters (Cf: soft hyphen, zero-width joiner and
# non-joiner, word joiner, BOM, tag characters, bidirectional controls), and marks and fillers drawn as nothing
# (the combining grapheme joiner, variation selectors, Mongolian free variation selectors, Hangul fillers).
_DRAWN_AS_NOTHING = re.compile(
    r"[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\ufe00-\ufe0f\uffa0"
    r"\U000e0100-\U000e01ef]"
)
# Letters of other alphabets (and Latin letters outside ASCII) drawn like an ASCII letter: a small skeleton
# table in the manner of Unicode's confusables (UTS #39), for the alphabets an attack would borrow from.
_LOOKALIKE = str.maketrans(
    "АВЕЅІЈКМНОРСТУХҮҺӀԚԜаеѕіјорсухԁһӏԛԝҫүѵ"  # Cyrillic
    "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧϹϺαικνορτυχγϲϳ"  # Greek
    "օսհոցզ"  # Armenian
    "ꓮꓐꓚꓓꓰꓝꓖꓧꓲꓙꓗꓡꓟꓠꓳꓑꓣꓢꓔꓴꓦꓪꓫꓬꓜ"  # Lisu
    "ᎪᏴᏟᎬᎻᎫᏦᏞᎷᏢᏚᎢᎳᏃ"  # Cherokee
    "ıɑɡɩʋᴀʙᴄᴅᴇɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢɅ"  # Latin letters outside ASCII (small capitals)
    "ⲀⲂⲈⲌⲎⲒⲔⲘⲚⲞⲢⲤⲦⲨⲬⲁⲉⲓⲕⲟⲣⲥⲩⲭ",  # Coptic
    "ABESIJKMHOPCTYXYHIQWaesijopcyxdhlqwcyv"
    "ABEZHIKMNOPTYXCMaikvoptuxycj"
    "ouhngq"
    "ABCDEFGHIJKLMNOPRSTUVWXYZ"
    "ABCEHJKLMPSTWZ"
    "iagiuabcdeghijklmnoprstuvwyzA"
    "ABEZHIKMNOPCTYXaeikopcyx",
)
_LOOKALIKES = frozenset(chr(k) for k in _LOOKALIKE)
_WORD = re.compile(r"\w+")


def _latin(ch: str) -> bool:
    return ch.isascii() or unicodedata.name(ch, "").startswith("LATIN")


def _skeleton(text: str) -> str:
    """Words written in lookalikes of Latin letters, read as the Latin word: a word that mixes them with Latin
    letters, or one made of nothing else in a text written mostly in Latin letters (a Russian or Greek text
    keeps its words)."""
    letters = [ch for ch in text if ch.isalpha()]
    mostly_latin = sum(map(_latin, letters)) * 2 > len(letters)

    def read(m: re.Match[str]) -> str:
        word = m.group()
        alike = [ch in _LOOKALIKES for ch in word if ch.isalpha()]
        if not any(alike):
            return word
        mixed = any(ch.isalpha() and ch not in _LOOKALIKES and _latin(ch) for ch in word)
        if (mixed and all(a or _latin(ch) for a, ch in zip(alike, (c for c in word if c.isalpha()), strict=True))) or (
            mostly_latin and all(alike)
        ):
            return word.translate(_LOOKALIKE)
        return word

    return _WORD.sub(read, text)


# A combining mark on a Latin letter that has no composed form ("O̲b̲e̲y̲s": underlines, strokes, overlays) is
# drawn over the letter, which still reads as itself; marks in other scripts (Devanagari's vowel signs) are
# letters' parts and stay.
_MARK_ON_LATIN = re.compile(r"(?<=[A-Za-z])[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+")


# Characters written as escapes a renderer or a model reads as the characters: "%4F%62", "&#111;", "\u004f".
_ESCAPES = re.compile(r"(?:%[0-9a-fA-F]{2}){2,}|&#(?:x[0-9a-fA-F]{1,6}|\d{1,7});|\\u[0-9a-fA-F]{4}")


def _unescaped(m: re.Match[str]) -> str:
    code = m.group()
    try:
        if code.startswith("%"):
            return bytes.fromhex(code.replace("%", "")).decode("utf-8", "ignore")
        if code.startswith("&#"):
            ch = chr(int(code[3:-1], 16) if code[2] in "xX" else int(code[2:-1]))
        else:
            ch = chr(int(code[2:], 16))
    except (ValueError, OverflowError):
        return code
    return ch if ch.isprintable() else ""


def judged(text: str) -> str:
    """The copy of `text` the checks read: escapes decoded, without invisible characters, NFKC-folded, without
    marks drawn over Latin letters, lookalikes read as Latin."""
    if not text:
        return text
    text = _ESCAPES.sub(_unescaped, text)
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    text = _DRAWN_AS_NOTHING.sub("", unicodedata.normalize("NFKC", text)).replace("\u2800", " ")
    text = _ENCLOSING.sub("", text)  # a keycap's frame ("4\ufe0f\u20e3"): the digit is what is read
    text = _NUMERAL.sub(_digit, text.translate(_FACES))
    text = _ROMAN_RUN.sub(_roman_digits, text)
    for _ in range(2):  # a mark after a mark's letter: "O̲̲"
        text = _MARK_ON_LATIN.sub("", text)
    return _skeleton(_PRECOMPOSED.sub(lambda m: _bare(m.group()), text))


# Marks that enclose a character (a keycap, a circle): drawn around it, not a character of their own.
_ENCLOSING = re.compile(r"[\u20dd-\u20e4]")
# Pictures that stand for a number and have no numeric value in Unicode: clock faces (one o'clock to twelve,
# and half past each), dice faces.
_FACES = {
    **{0x1F550 + h: str(h + 1) for h in range(12)},
    **{0x1F55C + h: str(h + 1) for h in range(12)},
    **{0x2680 + d: str(d + 1) for d in range(6)},
}
# Roman numerals one after another ("IV-VIII-II-I", "IV VIII II I"): a number written digit by digit. Three at
# least, and not only the word "I", so that "Henry VIII" or "World War II I think" stay words.
_ROMAN = {
    "I": "1",
    "II": "2",
    "III": "3",
    "IV": "4",
    "V": "5",
    "VI": "6",
    "VII": "7",
    "VIII": "8",
    "IX": "9",
    "X": "10",
}
_ROMAN_ONE = "(?:VIII|VII|VI|IV|IX|III|II|I|V|X)"
_ROMAN_RUN = re.compile(rf"(?<![\w.-]){_ROMAN_ONE}(?:(?:\s*[-./·,]\s*|\s+){_ROMAN_ONE}){{2,7}}(?![\w-])")


def _roman_digits(m: re.Match[str]) -> str:
    numerals = re.findall(r"[IVX]+", m.group())
    if sum(n != "I" for n in numerals) < 2:
        return m.group()
    return re.sub(r"[IVX]+", lambda n: _ROMAN[n.group()], m.group())


# Digits of other scripts and number signs ("➍➑", "四八二一", "٤٨٢١"): read as the digit each stands for.
_NUMERAL = re.compile(r"[^\x00-\x7f]")


def _digit(m: re.Match[str]) -> str:
    ch = m.group()
    value = unicodedata.numeric(ch, None)
    return (
        str(int(value))
        if value is not None
        and value == int(value)
        and 0 <= value <= 9
        and unicodedata.category(ch) in ("Nd", "No", "Nl", "Lo")
        else ch
    )


# A Latin letter beyond Latin-1 made of an ASCII letter and marks ("sȩrvant", "ȯbey"): read as the letter. The
# accents of Latin-1 ("café", "Zoë", "ñ") stay, as other languages' words need them to be read as themselves.
_PRECOMPOSED = re.compile(r"[\u0100-\u024f\u1e00-\u1eff]")


def _bare(ch: str) -> str:
    base = unicodedata.normalize("NFD", ch)[0]
    return base if base.isascii() and base.isalpha() and ch not in "ĞğŞşİıŁłŚśŻżŹźĆćŃńĄąĘęČčŠšŽžŘřŮůĚěŐőŰű" else ch


# A word that names a password, in the languages most spoken (a password's hint, manager or policy is not the
# password); written in an alphabet, it is a whole word, in Chinese, Japanese or Korean it needs no spaces.
_PASSWORD_WORDS = (
    r"(?:\b(?:password|passphrase|passwd|pwd|pass ?phrase|pass ?word|passcode|secret (?:word|key|phrase|"
    r"code)|(?<!most )memorable (?:\w+ )?(?:word|information|info|answer|place|name|date)|"
    r"security (?:question )?answer|parola d'ordine|"
    r"contraseñas?|contrasenas?|mot de passe|passwort|kennwort|пароль|паролем|пароля|senha|"
    r"palavra-passe|wachtwoord|hasło|haslo|lösenord|losenord|salasana|adgangskode|passord|şifre|"
    r"şifre\w*|sifre\w*|κωδικός|κωδικος|סיסמה|סיסמא|كلمة (?:المرور|السر)|पासवर्ड|mật khẩu|mat khau|"
    r"kata sandi|"
    r"kata laluan|heslo|jelszó|jelszo|parolă)\b|密码|密碼|口令|パスワード|暗証番号|비밀번호|암호)"
)
# Words that name a password only sometimes ("the key is to rest", "my bank pw"): then what follows must look
# like one (a digit or a symbol in it).
_PASSWORD_SOMETIMES = (
    r"\b(?:pw|pword|p/w|pswd|mdp|clave|parola|login|(?:wi-?fi|wlan|wpa2?|network|router|hotspot|"
    r"security|encryption|recovery|licen[cs]e|product|api|access|private|backup|master)[ -]?"
    r"(?:key|code|pass|schlüssel|schluessel|clé|cle|clave|chave|ключ)|(?:code|clé|cle|clave|chave) "
    r"(?:du |del |de )?(?:wi-?fi|wlan))\b"
)
_NOT_THE_PASSWORD = (
    r"(?!\s+(?:hints?|managers?|resets?|strength|polic(?:y|ies)|rules?|requirements?|"
    r"generators?|fields?|apps?|vaults?)\b)"
)
# What says "this is it": is, was, to, now, a colon, and the same in other languages.
_IS = (
    r"(?:\s[-–—]\s|\b(?:is|was|to(?!\s+(?:reset|change|remember|type|enter|log|sign|get|make|update|find|recover|"
    r"use|write|keep|be|do|have|the|my|a|an|it|its|me|them|her|him)\b)|now|it's|it is|es|era|est|c'est|ist|lautet|"
    r"war|это|будет|é|è|è|jest|är|er|on|olarak|"
    r"είναι|là|adalah|ialah|je)\b|[:=：]|是|为|為|は|が|는|은)"
)
_LOOKS_SECRET = r"(?=\S*(?:\d|[!@#$%^&*_+=~<>|\\/]\S))"
_NOT_CJK = r"[^\s\u2e80-\u9fff\uac00-\ud7af\uff01-\uff60。、]"

_SMALL_WORDS = (
    "the|and|with|for|from|that|this|when|where|very|really|just|same|always|never|into|onto|about|after|"
    "before|because|then|than|not|but|our|your|their|his|her|its|was|were|has|have|had|are|all|any|some|"
    "too|also|still|again|every|each|one|two|how|what|who|why|can|could|will|would|should|did|does|out|off|"
    "over|under|been|being|like|get|got|gets|so|to|of|in|on|at|by|it|is|be|as|an|or|if|my|me|we|us|you"
)
_PLAIN_WORDS = rf"(?:(?!(?:{_SMALL_WORDS})\b)[a-z]{{3,}}[\s-]+){{3,}}(?!(?:{_SMALL_WORDS})\b)[a-z]{{3,}}\b"
_PIN_WORDS = (
    r"(?:\b(?:(?<!safety )(?<!rolling )(?<!hair )(?<!metal )(?<!bowling )(?<!drawing )"
    r"pin(?![\s-]*(?:badges?|boards?|cushions?|points?|drops?|stripes?|collect\w*|trading|in|into|through|"
    r"and needles)\b)|pin ?code|pin number|passcode|pass code|(?:door|alarm|lock|gate|safe|entry|access|"
    r"unlock|"
    r"garage|keypad|building|locker|padlock|phone|bike|key ?safe|lockbox|key ?box) code|combination|"
    r"(?:unlock|screen|phone|lock ?screen) pattern|"
    r"combo|key ?safe|lockbox|code (?:for|to|of) (?:the|my) (?:door|alarm|lock|"
    r"gate|safe|phone|garage|locker)|código(?: pin)?|code pin|geheimzahl|pin-код|пин|пин-код|код от \w+)\b"
    r"|暗証番号|密码|비밀번호)"
)
# Digits one by one or in groups: "4821", "4 8 2 1", "48-21", "4.8.2.1".
_PIN_DIGITS = r"(?<!\d)\d(?:(?:\s{0,2}[.,/·-]\s{0,2}|\s{1,2})?\d){2,7}(?![\d])"

# Keying digits in at a cash machine or a keypad, and four to eight digits that are not an amount of money.
_KEYED_AT = (
    r"(?:\b(?:tap|type|punch|key)\w*\b(?!\s+(?:\w+\s+)?(?:card|cards|postcode|post code|zip|address|name|"
    r"email|e-mail|cheque|check|money|cash|amount|deposit)\b)[^.!?\n]{0,24}?\bin\b[^.!?\n]{0,40}?|"
    r"\benter(?:s|ed|ing)?\b[^.!?\n]{0,16}?)"
    r"\b(?:at|into|on|in)\s+(?:the|a|an|my|any|every)\s+(?:cash ?points?|atms?|cash machines?|"
    r"card (?:machine|reader)s?|key ?pads?|pin ?pads?)\b"
)
_KEYED_DIGITS = (
    r"(?<![£$€¥\d.,])(?!(?:19|20)\d\d(?![\d.,]*\d))\d(?:(?:\s{0,2}[.,/·-]\s{0,2}|\s{1,2})?\d){3,7}(?![\d.,]*\s*(?:quid|pounds?|"
    r"dollars?|euros?|bucks|k\b|p\b|%))"
)

_PUBLIC_CODES = (
    r"post|postal|zip|area|country|dial(?:ling)?|discount|promo|promotional|voucher|coupon|error|"
    r"tracking|booking|reference|course|product|dress|colou?r|qr|bar|source|morse|airport|flight|"
    r"class|style|tax|sort|swift|bic|iata|icao|language|status|exit|zip"
)
_NUMBER_WORDS = (
    "zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    "fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|"
    "ninety|hundred|"  # English
    "cero|uno|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|"  # Spanish
    "zéro|zero|un|deux|trois|quatre|cinq|six|sept|huit|neuf|"  # French
    "null|eins|zwei|drei|vier|fünf|funf|sechs|sieben|acht|neun|"  # German
    "um|dois|três|tres|quatro|cinco|seis|sete|oito|nove|"  # Portuguese
    "uno|due|tre|quattro|cinque|sei|sette|otto|nove|"  # Italian
    "nul|een|twee|drie|vier|vijf|zes|zeven|acht|negen|"  # Dutch
    "jeden|dwa|trzy|cztery|pięć|piec|sześć|szesc|siedem|osiem|dziewięć|dziewiec|"  # Polish
    "ноль|один|два|три|четыре|пять|шесть|семь|восемь|девять"
)  # Russian
# Words that name an identity document's number, in the languages most spoken.
_ID_WORDS = (
    r"\b(?:passport|national insurance|ni number|nino|social security|ssn|sin number|tax (?:id|number|code)|"
    r"driver'?s licen[cs]e|driving licen[cs]e|licen[cs]e number|id number|identity number|"
    r"personalausweis|reisepass|steuer-?id|dni|nif|cpf|aadhaar|pan number|codice fiscale|"
    r"numéro de sécurité sociale|passeport|pasaporte|passaporte)\b"
)
# Places in a phrase, from one to another: "one to four", "5-8", "nine through twelve".
_NUMBER = r"(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty[- ]?\w*)"
_PLACES = rf"{_NUMBER}\s*(?:to|-|\u2013|through|thru|and)\s*{_NUMBER}\b"
# A wallet's recovery words.
_SEED_WORDS = r"\b(?:seed|recovery|backup|mnemonic|secret recovery|wallet) (?:phrase|words?|sentence)\b|\bmnemonic\b"

_PATTERNS = (
    ("a PIN", re.compile(rf"{_PIN_WORDS}[^\d.!?\n]{{0,56}}?{_PIN_DIGITS}", re.I)),
    # What is typed at a cash machine: "taps 4821 in at the cashpoint", "the ATM one is 4821".
    (
        "a PIN",
        re.compile(
            rf"\b(?:tap|type|punch|key|enter)\w*\s+{_PIN_DIGITS}\s+in\s+(?:at|into|on)\s+the\s+"
            rf"(?:cashpoint|atm|cash machine|card machine)|"
            rf"(?:cashpoint|atm|cash machine|card machine)(?:\s+\w+){{0,2}}?\s*(?:is|:|=)\s*"
            rf"{_PIN_DIGITS}",
            re.I,
        ),
    ),
    # A door's or an alarm's code may hold letters: "the door code is A7B3".
    (
        "a PIN",
        re.compile(rf"{_PIN_WORDS}[^\d.!?\n]{{0,24}}?\b(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{{4,8}}\b", re.I),
    ),
    (
        "a password",
        re.compile(
            rf"{_PASSWORD_WORDS}{_NOT_THE_PASSWORD}[^.!?\n]{{0,30}}?{_IS}\s*[\"'“«]?"
            rf"{_NOT_CJK}{{4,}}",
            re.I,
        ),
    ),
    # No word between: "пароль qwerty123", "password: hunter2" (then it looks like one).
    (
        "a password",
        re.compile(rf"{_PASSWORD_WORDS}{_NOT_THE_PASSWORD}\s*[\"'“«]?{_LOOKS_SECRET}{_NOT_CJK}{{4,}}", re.I),
    ),
    (
        "a password",
        re.compile(
            rf"{_PASSWORD_SOMETIMES}(?:[^.!?\n]{{0,20}}?{_IS}\s*|\s*)[\"'“«]?{_LOOKS_SECRET}"
            rf"{_NOT_CJK}{{4,}}",
            re.I,
        ),
    ),
    # A passphrase of plain words ("correct horse battery staple"): four or more words in a row, none of the
    # small words a sentence is made with ("my login is really slow today" is a sentence).
    (
        "a password",
        re.compile(
            rf"(?:{_PASSWORD_WORDS}|{_PASSWORD_SOMETIMES}|\b(?:unlocks?|opens?|logs? (?:in|on)|"
            rf"signs? in)(?:\s+\w+){{0,3}}?\s+(?:with|using))[^.!?\n]{{0,20}}?(?:{_IS}\s*|\s)"
            rf"[\"'“«]?{_PLAIN_WORDS}",
            re.I,
        ),
    ),
    # Said by what it is keyed in for, whatever else it is said to be, in one sentence: "the number 4821 (what I
    # tap in at the cashpoint)", "what I tap in at the cashpoint is my nan's house number, 4747". Money taken out
    # there is not keyed in ("took £200 out at the ATM").
    ("a PIN", re.compile(rf"(?:^|(?<=[.!?\n]))(?=[^.!?\n]*?{_KEYED_AT})(?=[^.!?\n]*?{_KEYED_DIGITS})[^.!?\n]+", re.I)),
    # Part of one is a secret too: "my PIN ends in 21".
    (
        "a PIN",
        re.compile(
            rf"{_PIN_WORDS}\D{{0,24}}?\b(?:ends?|ending|starts?|starting|begins?|beginning)\s+"
            rf"(?:in|with)\s+\d{{2,}}",
            re.I,
        ),
    ),
    # Spelt out in words, in a language most spoken, or words and digits mixed: "eight-four-two-one", "cuatro
    # ocho dos uno", "twenty-one eighty-four", "4-eight-2-one".
    (
        "a PIN",
        re.compile(
            rf"(?=(?:\b(?:\d|{_NUMBER_WORDS})\b[\s,.-]*){{4,8}})"
            rf"(?=(?:\b(?:\d|{_NUMBER_WORDS})\b[\s,.-]*){{0,7}}\b(?:{_NUMBER_WORDS})\b)"
            rf"(?:\b(?:\d|{_NUMBER_WORDS})\b[\s,.-]*){{4,8}}",
            re.I,
        ),
    ),
    (
        "a PIN",
        re.compile(
            r"\b(?:2fa|two[- ]factor|otp|one[- ]time|backup|recovery|verification|authentication|auth)"
            r"\b[^.!?\n]{0,20}?\b(?:codes?|keys?|pins?)\b[^.!?\n]{0,12}?\d{4,}",
            re.I,
        ),
    ),
    # Said by what it opens, not what it is: "my phone unlocks with 482193", "uses hunter2 for her email",
    # "online banking uses Fluffy99" (the value holds a digit or a sign, as a password does).
    (
        "a password",
        re.compile(
            r"\b(?:unlocks?|opens?|logs? (?:in|on)|signs? in|gets? in)\s+(?:with|using)\s+[\"'“]?"
            r"(?=\S*[\d!@#$%^&*])\S{4,}",
            re.I,
        ),
    ),
    (
        "a password",
        re.compile(
            r"\buses?\s+[\"'“]?(?=\S*[\d!@#$%^&*])(?=\S*[A-Za-z])\S{4,}[\"'”]?\s+(?:as|for)\s+"
            r"(?:(?:her|his|their|my|the|its|all|every)\s+)?(?:\w+\s+)?(?:(?:password|login|e-?mail|"
            rf"account|bank(?:ing)?|pin|wi-?fi)\b{_NOT_THE_PASSWORD}|(?:pretty much |nearly |"
            rf"almost )?"
            r"(?:everything|every ?thing|all (?:\w+ )?accounts|every (?:\w+ )?account|every site)\b)",
            re.I,
        ),
    ),
    (
        "a password",
        re.compile(
            r"\b(?:banking|e-?mail|login|wi-?fi)\s+(?:uses|is|=|:)\s+[\"'“]?"
            r"(?=\S*\d)(?=\S*[A-Za-z])[A-Za-z0-9!@#$%^&*._-]{5,}\b",
            re.I,
        ),
    ),
    # A card's expiry, and part of its number said as such ("the first eight digits of my card are 41111111"):
    # with the rest said another day, each is a part of the card.
    (
        "a card number",
        re.compile(
            r"\b(?:cards?|debit|credit|visa|mastercard|amex)\b[^.!?\n]{0,40}?\b(?:expires?|expiry|"
            r"exp\.?|valid (?:thru|through|until|to))\b(?:\s+date)?\s*(?:is\s+|on\s+|:\s*)?"
            r"(?:0?[1-9]|1[0-2])\s*[/.-]\s*(?:\d{4}|\d{2})\b",
            re.I,
        ),
    ),
    (
        "a card number",
        re.compile(
            r"\b(?:card(?:'s)?\s+(?:number\s+)?{part}|{part}\s+(?:of|on|from|in)\s+(?:my|the|her|his|"
            r"their|a|our)\s+(?:\w+\s+)?card)\b[^.!?\n\d]{{0,12}}?(?:\bare\b|\bis\b|[:=])\s*"
            r"\d(?:[\s-]?\d){{3,}}".format(
                part=r"(?:first|last|middle|other|next|final|remaining)\s+"
                r"(?:\w+\s+)?(?:digits?|numbers?|four|six|eight|twelve)"
            ),
            re.I,
        ),
    ),
    (
        "a security code",
        re.compile(
            r"\b(?:cvv|cvc|cvv2|security code|(?:digits|numbers?|code) on the back)\b"
            r"[^\d.!?\n]{0,40}\d{3,4}\b",
            re.I,
        ),
    ),
    # The number itself is digits and capitals ("in 2019" after "account" is not one), with six digits at least.
    (
        "an account number",
        re.compile(
            r"(?i:\b(?:account|acct|routing|sort code|bsb|iban|bank details|banking details)"
            r"\b(?: (?:number|no\.?|#))?)"
            r"\W{0,6}(?:(?i:is|are)\W{0,3})?(?=[0-9A-Z -]*?(?:\d[ -]*){6})"
            r"[0-9A-Z][0-9A-Z -]{5,33}\d\b"
        ),
    ),
    ("an account number", re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,4})?\b")),  # IBAN
    ("an identity number", re.compile(r"\b\d{3}([- ])\d{2}\1\d{4}\b")),
    ("an identity number", re.compile(r"\b[A-CEGHJ-PR-TW-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b", re.I)),  # NI number
    (
        "an identity number",
        re.compile(
            rf"(?i:{_ID_WORDS})\D{{0,24}}?(?=[A-Z0-9 -]*\d)(?=(?:[A-Z -]*\d){{6}})"
            rf"[A-Z0-9][A-Z0-9 -]{{4,20}}\d"
        ),
    ),
    (
        "a recovery phrase",
        re.compile(
            rf"(?:{_SEED_WORDS})[^.!?\n]{{0,20}}?(?:[:=-]|\bis\b|\bare\b)?"
            rf"(?:\s*(?:\d{{1,2}}[.)]?\s+)?[a-z]{{3,8}}\b){{8,}}",
            re.I,
        ),
    ),
    ("a recovery phrase", re.compile(r"(?:\b\d{1,2}[.)]?\s+[a-z]{3,8}\b[\s,]*){8,}", re.I)),
    # Part of the words, said as a part ("the first half of my wallet phrase: ...", "the rest of it is ..."): a
    # phrase split across messages is as secret as one said whole.
    (
        "a recovery phrase",
        re.compile(
            rf"\b(?:half|part|rest|remaining|first|second|third|last|other|next|final)\b[^.!?\n]{{0,30}}?"
            rf"(?:{_SEED_WORDS})[^.!?\n]{{0,20}}?(?:[:=-]|\bis\b|\bare\b)?(?:\s*(?:\d{{1,2}}[.)]?\s+)?[a-z]{{3,8}}\b)"
            rf"{{3,}}",
            re.I,
        ),
    ),
    # A part named by its places in the phrase, after the phrase ("words one to four of my wallet seed: ...",
    # "wallet seed words 5-8 are ...") or alone once the phrase was named ("the last eight are ..."): six words
    # and more, as a phrase's part is said.
    (
        "a recovery phrase",
        re.compile(
            rf"(?:{_SEED_WORDS}|\bseed\b)[^.!?\n]{{0,30}}?\b{_PLACES}[^.!?\n]{{0,30}}?(?:[:=-]|\bis\b|\bare\b)"
            rf"(?:\s*[a-z]{{3,8}}\b){{3,}}|"
            rf"\bwords?\s+{_PLACES}\s+(?:of|from|in)\s+(?:my|the|their|her|his|our)\s+(?:\w+\s+)?(?:seed|recovery|backup|"
            rf"mnemonic|wallet)\b[^.!?\n]{{0,20}}?(?:[:=-]|\bis\b|\bare\b)(?:\s*[a-z]{{3,8}}\b){{3,}}|"
            r"\b(?:first|last|next|remaining|final|other)\s+(?:\d{1,2}|four|six|eight|twelve|twenty[- ]?\w*|half|"
            r"words|ones)\s*(?:words\s+)?(?:are|is|[:=])(?:\s*,?\s*[a-z]{3,8}\b){6,}",
            re.I,
        ),
    ),
    # A password said as how it is made: "our cat and the year we got him: Miso plus 2015", "the dog's name
    # followed by my birth year".
    (
        "a password",
        re.compile(
            rf"(?:{_PASSWORD_WORDS}|\blogin\b|{_PIN_WORDS})[^.!?\n]{{0,40}}?(?:\bis\b|\bwas\b|\bare\b|\bbe\b|"
            rf"\buses?\b|\bmade\b|[:=])[^.!?\n]{{0,60}}?(?:"
            rf"(?<![\w'-])(?=[\w'-]*(?-i:[A-Z0-9]))[\w'-]{{2,}}\s*(?:\+|\bplus\b|\bfollowed by\b|&)\s*[\w'-]{{2,}}|"
            rf"[\w'-]{{2,}}\s*(?:\+|\bplus\b|\bfollowed by\b|&)\s*(?=[\w'-]*(?-i:[A-Z0-9]))[\w'-]+|"
            rf"\b(?:name|birthday|birth ?year|year|date|number|initials|postcode)\s+"
            rf"(?:plus|\+|followed by|and then|then)\s+(?:my|our|their|the|his|her)\s+\w+)",
            re.I,
        ),
    ),
    (
        "a key",
        re.compile(
            r"\b(?:0x)?[0-9a-fA-F]{32,}\b|\b(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[a-z])(?=[A-Za-z0-9]*[A-Z])"
            r"[A-Za-z0-9]{32,}\b"
        ),
    ),
    # A security question's answer said another way: "Mum was born a Pemberton", "her name before she married".
    (
        "a password",
        re.compile(
            r"\b(?:mother|mum|mom)\w* (?:was )?born an? (?-i:[A-Z][a-z]+)|before she (?:was )?"
            r"married,? (?:(?:it )?was )?(?-i:[A-Z][a-z]+)|(?:answer|answers) to (?:all |each |"
            r"every )?"
            r"(?:of )?(?:\w+ )?security questions?",
            re.I,
        ),
    ),
    (
        "a password",
        re.compile(
            r"\b(?:mother'?s|mum'?s|mom'?s|mothers) maiden name\b[^.!?\n]{0,30}?(?:\bis|\bwas|it's|:|=)\s*"
            r"[\"'“]?[A-Za-z]{2,}",
            re.I,
        ),
    ),
    (
        "a password",
        re.compile(
            r"\b(?:type|enter|use|put in)\s+[\"'“]?(?=\S*\d)(?=\S*[A-Za-z])\S{5,}[\"'”]?\s+to\s+"
            r"(?:get on|get onto|connect|join|log ?in|get into|access|unlock)\b",
            re.I,
        ),
    ),
    # A product or router key: groups of capitals and digits ("ZX8-44Q-KM2", "7Q2KX-M9PLD-...").
    ("a key", re.compile(r"\b(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9]{3,6}(?:-[A-Z0-9]{3,6}){2,}\b")),
    # A token a service issues: a short prefix, then a long run of letters and digits ("hf_...", "glpat-...",
    # a bot's "7012345678:AAH..."), an authenticator's secret, an otpauth:// link.
    (
        "a key",
        re.compile(
            r"\b[a-z]{2,8}[_-](?:(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])|(?=[A-Za-z0-9]*[A-Z])"
            r"(?=[A-Za-z0-9]*[a-z]))[A-Za-z0-9]{20,}\b|"
            r"\b\d{8,10}:(?=[\w-]*[A-Za-z])[A-Za-z0-9_-]{10,}|otpauth://\S+"
        ),
    ),
    (
        "a key",
        re.compile(r"\b(?:authenticator|2fa|totp|otp|mfa|two[- ]factor)\b[^.!?\n]{0,40}?\b[A-Z2-7]{16,}\b", re.I),
    ),
    (
        "a key",
        re.compile(
            r"\b(?:sk-[A-Za-z0-9_-]{16,}|(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}|ghp_[A-Za-z0-9]{20,}|gho_[A-Za-z0-9]{20,}|AKIA[0-9A-Z]{16}"
            r"|xox[abpr]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{30,})"
        ),
    ),
)
# Digit groups with one separator between them (a space, a dash, a dot, a slash): a card number is 13 to 19
# digits that pass the Luhn check, all of a run of groups, or groups of four within one ("card 4111 1111 1111
# 1111 2 times"; a date or a phone number in a run is not read in pieces).
_GROUPS = re.compile(r"(?<!\d)(?<!\d[ .\-/_])\d+(?:(?:\s?[.\-/_·]\s?|\s)\d+)*")


def _luhn(digits: str) -> bool:
    total = 0
    for i, d in enumerate(reversed(digits)):
        n = int(d) * (2 if i % 2 else 1)
        total += n - 9 if n > 9 else n
    return total % 10 == 0


def _cards(text: str) -> list[str]:
    """The card numbers in `text`, as digits."""
    found = []
    for m in _GROUPS.finditer(text):
        groups = re.split(r"\D+", m.group())
        runs = [groups] + [
            groups[i:j]
            for i in range(len(groups))
            for j in range(i + 2, len(groups) + 1)
            if all(len(g) == 4 for g in groups[i : j - 1])
        ]
        for run in runs:
            digits = "".join(run)
            if 13 <= len(digits) <= 19 and _luhn(digits):
                found.append(digits)
                break
    return found


# An IBAN in any case and spacing: two letters, two check digits, then up to 30 letters and digits.
_IBAN = re.compile(r"\b[A-Za-z]{2}\d{2}(?:[A-Za-z0-9]{11,30}\b|(?:[ -][A-Za-z0-9]{1,4}\b){3,8})")


def _iban(text: str) -> bool:
    """Whether `text` holds an IBAN that passes its check (ISO 13616: mod 97 of the rearranged number is 1); a
    word after one may look like its last group ("... 0130 00 okay"), so shorter readings are tried too."""
    for m in _IBAN.finditer(text):
        groups = re.split(r"[ -]", m.group())
        for end in range(len(groups), 0, -1):
            raw = "".join(groups[:end]).upper()
            if 15 <= len(raw) <= 34 and int("".join(str(int(ch, 36)) for ch in raw[4:] + raw[:4])) % 97 == 1:
                return True
    return False


# A code of the person's (a door's, phone banking's, two-factor backup codes) said with its digits: right after
# it, or after a few words and "is", "are" or a colon. A post code, a discount code or a flight's is no secret.
_CODE = re.compile(
    r"(?:\b(\w+)[ -])?\b(?:codes?|passcodes?)\b(?:(?:\s+\w+\b){0,3}?\s*(?:is|are|was|were|:|=))?"
    r"\W{0,3}\b\d(?:[\s-]?\d){3,}",
    re.I,
)
_PUBLIC = re.compile(rf"(?:{_PUBLIC_CODES})$", re.I)


def _code(text: str) -> bool:
    return any(not (m.group(1) and _PUBLIC.match(m.group(1))) for m in _CODE.finditer(text))


# A run of digits as a secret is read: with the separators a person puts in ("48-21", "4 8 2 1").
_DIGIT_RUN = re.compile(r"\d(?:(?:\s{0,2}[.,/·-]\s{0,2}|\s{1,2})?\d)*")
_YEAR = re.compile(r"(?:19|20)\d\d")
_TOKEN = re.compile(r"[^\s\"'“”«»()\[\],;:]{5,}")


def _values(text: str) -> tuple[set[str], set[str]]:
    """What can carry a secret's value out of the words that name it: runs of four digits or more (digits
    only), and words of letters and digits ("hunter22"), in small letters."""
    runs = {d for m in _DIGIT_RUN.finditer(text) if len(d := re.sub(r"\D", "", m.group())) >= 4}
    words = {
        w.lower().strip(".!?")
        for w in _TOKEN.findall(text)
        if any(ch.isdigit() for ch in w) and any(ch.isalpha() for ch in w)
    }
    return runs, words


def repeated(content: str, said: str) -> str | None:
    """The kind of secret in `said` (the message a line was written from) whose value `content` holds however
    it names it, or None: "the number 4821" written from "my PIN is 4821", "likes the word hunter22" from
    "my password is hunter22". A line drops the words that make a secret's value a secret; the value stays."""
    if not content or not said:
        return None
    content, said = judged(content), judged(said)
    runs, words = _values(content)
    found = [(what, m.group()) for what, pattern in _PATTERNS for m in pattern.finditer(said)]
    found += [("a PIN", m.group()) for m in _CODE.finditer(said) if not (m.group(1) and _PUBLIC.match(m.group(1)))]
    found += [("a card number", run) for run in _cards(said)]
    phrase = {w.lower() for w in _PHRASE_WORD.findall(content)}
    for what, secret in found:
        if what == "a recovery phrase" and len(_phrase_words(secret) & phrase) >= 2:  # its words, however named
            return what
        secret_runs, secret_words = _values(secret)
        secret_runs = {v for v in secret_runs if not _YEAR.fullmatch(v)}  # a sentence's year is not its PIN
        if secret_runs & runs or secret_words & words:
            return what
    return None


def find(text: str) -> list[str]:
    """The kinds of secret in `text` ("a PIN", "a card number", ...), each once, in a fixed order."""
    if not text:
        return []
    text = judged(text)
    found = [what for what, pattern in _PATTERNS if pattern.search(text)]
    if _code(text):
        found.append("a PIN")
    if _iban(text):
        found.append("an account number")
    if _cards(text):
        found.append("a card number")
    return list(dict.fromkeys(found))


# What stands where a secret's value was, in a reply or a recalled line.
MASK = "[secret not repeated]"


# A long text is read a piece at a time: reading a pasted 1,000,000 characters whole took 2.9 s, one regex scan
# of it up to 350 ms, each holding the GIL (the window's thread waits that long); a piece's scans take ~6 ms. A
# piece is cut at a space where one is near, and read on REACH characters past the cut: a secret is far shorter.
PIECE, REACH = 16_000, 1_000
_SPACE = re.compile(r"\s")


def pieces(text: str) -> list[str]:
    """`text` as overlapping pieces of about PIECE characters: whatever starts before one piece's cut and is
    shorter than REACH is whole in that piece."""
    out, start = [], 0
    while len(text) - start > PIECE + REACH:
        space = _SPACE.search(text, start + PIECE, start + PIECE + REACH // 2)
        cut = space.start() if space else start + PIECE
        out.append(text[start : cut + REACH])
        start = cut
    return [*out, text[start:]]


def values(text: str) -> set[str]:
    """The values of the secrets `text` holds, as `masked` finds them again: each run of four digits or more (the
    digits alone), each word of letters and digits, and a password's last word, of every secret `find` would name."""
    if len(text) > PIECE + REACH:
        return set().union(*(_values_in(piece) for piece in pieces(text)))
    return _values_in(text)


def _values_in(text: str) -> set[str]:
    if not text:
        return set()
    text = judged(text)
    spans = [(what, m.group()) for what, pattern in _PATTERNS for m in pattern.finditer(text)]
    spans += [("a PIN", m.group()) for m in _CODE.finditer(text) if not (m.group(1) and _PUBLIC.match(m.group(1)))]
    found = set(_cards(text))
    for what, span in spans:
        if what == "a recovery phrase":  # each of its words is the secret, not only the last
            found |= _phrase_words(span)
        runs, words = _values(span)
        found |= {r for r in runs if not _YEAR.fullmatch(r)} | words
        last = span.split()[-1].strip("\"'“”«».,!?") if span.split() else ""
        if len(last) >= 4 and not _IS_WORD.fullmatch(last):  # "hunter" of "my password is hunter"
            found.add(last.lower())
    return found


_IS_WORD = re.compile(r"(?i:is|was|are|ist|est|es|:|=)")
_PHRASE_WORD = re.compile(r"\b[a-z]{3,8}\b", re.I)
# The words around a recovery phrase that name it, not its words: never masked.
_NAMING_WORDS = frozenset(
    "seed recovery backup mnemonic secret wallet phrase words word sentence are the and half part rest remaining "
    "first second third last other next final".split()
)


def _phrase_words(span: str) -> set[str]:
    return {w.lower() for w in _PHRASE_WORD.findall(span)} - _NAMING_WORDS


# How many of the person's messages in a row are read together for a secret split over them.
SPLIT_OVER = 4


def across(said: list[str]) -> set[str]:
    """The values of secrets said over several of the person's messages (oldest first, the last SPLIT_OVER of
    them): "my recovery words are: apple river", then "stone orange ...". Read together, as one text, what
    neither holds alone is found; each message alone is read too."""
    recent = [s for s in said if s][-SPLIT_OVER:]
    found = set().union(*(values(s) for s in recent)) if recent else set()
    return found | values("\n".join(recent)) if len(recent) > 1 else found


def masked(text: str, secret_values: set[str]) -> str:
    """`text` with each of `secret_values` (from `values`) replaced by MASK, however it is written: a digit run
    with the separators a person puts in ("48 21", "4-8-2-1"), a word in any case."""
    for value in sorted(secret_values, key=len, reverse=True):
        if value.isdigit():
            body = r"[\s.,/·-]{0,2}".join(value)
            text = re.sub(rf"(?<!\d){body}(?!\d)", MASK, text)
        else:
            text = re.sub(rf"(?<!\w){re.escape(value)}(?!\w)", MASK, text, flags=re.I)
    return text


def unrepeated(text: str) -> str:
    """`text` with the values of the secrets it holds masked: a recalled line that said one."""
    found = values(text)
    return masked(text, found) if found else text
