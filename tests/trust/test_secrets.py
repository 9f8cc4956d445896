"""Secrets are found as the person reads them (trust/secrets.py): whatever invisible characters, separators,
lookalike letters or language they are written in; and what only looks like one is not."""

import pytest

from anima.trust.secrets import find, judged, repeated


@pytest.mark.parametrize(
    "text, kind",
    [
        ("my PIN is 4\u200d8\u200d2\u200d1 lol", "a PIN"),
        ("My PIN is 4 8 2 1, don't tell anyone", "a PIN"),
        ("door code: 48-21", "a PIN"),
        ("PIN \uff14\uff18\uff12\uff11", "a PIN"),  # fullwidth digits
        ("My PIN is four eight two one", "a PIN"),
        ("My wifi key is Xy7pq!rt9", "a password"),
        ("the bank pw is hunter22", "a password"),
        ("Mi contrase\u00f1a es hunter22", "a password"),
        ("mon mot de passe est chaton77", "a password"),
        ("Mein Passwort ist Sommer2024", "a password"),
        ("\u043c\u043e\u0439 \u043f\u0430\u0440\u043e\u043b\u044c qwerty123", "a password"),
        ("\u6211\u7684\u5bc6\u7801\u662fhunter22", "a password"),
        ("\u30d1\u30b9\u30ef\u30fc\u30c9\u306fabc12345\u3067\u3059", "a password"),
        ("\ube44\ubc00\ubc88\ud638\ub294 hunter22", "a password"),
        ("pass\u00adword is hunter2", "a password"),
        ("Paying with card 4111.1111.1111.1111 for the trip", "a card number"),
        ("card 4111 1111 1111 1111 2 times", "a card number"),
        ("4111/1111/1111/1111", "a card number"),
        ("Account number: 12345678, sort code 12-34-56", "an account number"),
        ("my passcode is hunter22", "a password"),
        ("the memorable word is tigger7", "a password"),
        ("PIN is 4  8  2  1", "a PIN"),
        ("4111 - 1111 - 1111 - 1111", "a card number"),
        ("\u015fifrem: abc12345", "a password"),
        (
            "\u043f\u0430\u0440\u043e\u043b\u044c \u043e\u0442 \u043f\u043e\u0447\u0442\u044b \u2014 qwerty",
            "a password",
        ),
        ("WLAN-Schl\u00fcssel ist Xy7pq!rt9", "a password"),
        # Forms a first probe with held-out attacks found missing.
        ("send it to de89 3704 0044 0532 0130 00 please", "an account number"),  # an IBAN in small letters
        ("My SSN is 123 45 6789", "an identity number"),
        ("NI number QQ 12 34 56 C", "an identity number"),
        ("my passport number is 925076473", "an identity number"),
        (
            "my seed phrase is abandon ability able about above absent absorb abstract absurd abuse access accident",
            "a recovery phrase",
        ),
        ("the key safe opens with eight-four-two-one", "a PIN"),
        ("mi PIN es cuatro ocho dos uno", "a PIN"),
        ("the locker combination is 12-34-56", "a PIN"),
        ("my bank PIN ends in 21", "a PIN"),
        ("use sk_live_4eC39HqLyjWDarjtT1zdp7dc for the shop", "a key"),
        # ... and a second probe.
        ("My bank details are 20 00 00 then 55779911", "an account number"),
        ("My phone banking code is 739204, the bank rang me today.", "a PIN"),
        ("My 2FA backup codes are 8472-1937, 5520-0184 and 9931-4478.", "a PIN"),
        ("My wallet export is 4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318", "a key"),
        ("The door code at my flat is twenty-one eighty-four.", "a PIN"),
        ("My card PIN is 4-eight-2-one", "a PIN"),
        ("My bank's memorable place answer is Whitby1987", "a password"),
        ("the gate code 4821", "a PIN"),
        # ... and a third: said by what it opens.
        ("Ada's phone unlocks with 482193", "a password"),
        ("Ada uses hunter2 for her email", "a password"),
        ("online banking uses Fluffy99", "a password"),
        # ... a fourth: digits in pictures and numerals, and said by where they are keyed in.
        ("My PIN is IV-VIII-II-I in Roman numerals", "a PIN"),
        ("the alarm code is VI IX IV II", "a PIN"),
        ("Door code at my flat is \U0001f553\U0001f557\U0001f551\U0001f550", "a PIN"),
        ("my PIN is \u2683\u2680\u2685\u2681, dice faces", "a PIN"),
        ("the number 4821 (also what I tap in at the cashpoint)", "a PIN"),
        ("What I type in at the ATM is my nan's house number twice, 4747.", "a PIN"),
        ("I punch 7 3 9 1 in on the keypad by the front door", "a PIN"),
        ("Debit card expires 09/27", "a card number"),
        ("my visa's expiry date is 11/2028", "a card number"),
        ("My card's first eight digits are 41111111.", "a card number"),
        ("The last eight of my card are 1111 1111", "a card number"),
        # ... a fifth: a phrase in parts, and a password said as how it is made.
        ("Part one of my recovery phrase: ocean timber velvet mango", "a recovery phrase"),
        ("the other half of the seed words are rocket planet silver candle", "a recovery phrase"),
        ("My email password is our dog and my house number: Rex plus 42", "a password"),
        ("my phone passcode is the year I was born plus 7, so 1990 plus 7", "a password"),
        ("the wifi password is my mum's name followed by her birth year", "a password"),
        # ... a sixth: a part named by its places in the phrase, before or after it, or alone.
        ("Words one to four of my wallet seed: tiger lamp orbit cedar.", "a recovery phrase"),
        ("my backup phrase, words 5-8, is lemon grape sofa tunnel", "a recovery phrase"),
        ("The last eight are harbor quiet novel drum essay frost pilot yellow.", "a recovery phrase"),
    ],
)
def test_a_secret_is_found_however_it_is_written(text, kind):
    assert kind in find(text)


@pytest.mark.parametrize(
    "text",
    [
        "I opened my first bank account in 2019, so proud of that.",
        "my account was opened in 2019",
        "Debug mode is on for this account (until 2026-12-14)",
        "My account is 10 years old",
        "The key is to rest well",
        "Wifi key is taped under the router",
        "La clave es practicar cada d\u00eda",
        "\u6211\u7684\u5bc6\u7801\u662f\u4ec0\u4e48\uff1f",
        "I forgot my password again, ugh",
        "I use a password manager",
        "Call me on 0207 946 0958 or 0161 496 0000",
        "Dates: 2024-01-15 2024-01-16 2024-02-01",
        "Version 1.2.3.4 shipped",
        "Collects enamel pin badges, has 120",
        "Fell asleep at 10.30, woke at 6.15",
        "The code is done by 5pm",
        "My favourite word is contrase\u00f1a",
        "Has two kids, one is four",
        "Born in 1990, moved in 2019 to 12 Ash Road",
        "Phone is 020 7946 0018",
        "Ran 5 10 15 20 km this month",
        "Lives in one of two three-bedroom flats",
        "DE is a country code",
        "I must remember to renew my passport in June, it expires on 14/06.",
        "My zip code is 90210",
        "The discount code is SAVE2024",
        "Flight code BA1234 leaves at 10",
        "Error code 4040 again",
        "The code review took 2024 lines",
        "I was born in nineteen eighty four",
        "Room 1204, booking reference 88421",
        "my laptop is MacBook2019",
        "My phone is an iPhone15",
        "The door opens with a push",
        "She uses B12 for energy",
        "Henry VIII, then World War II I think",
        "Read chapters IV, V and VI",
        "I took 2000 out at the cashpoint",
        "Took out £1000 at the ATM",
        "Entered 1500 pounds at the cash machine",
        "See you at \U0001f553 by the ATM",
        "I entered the bank at 1130 and queued at the ATM",
        "Took out 1000 at the ATM",
        "I use the ATM on 4th Street",
        "Used 2 cards at the cashpoint, 1500 in all",
        "My passport expires 06/28",
        "The last four years my card bill was 1200",
        "My card was declined, the one ending 1234",
        "The card game lasts 20 minutes, first half is 1000 points",
        "Birthday card for mum, first of 3 this week",
        "Half of my recovery words are written on paper in the safe",
        "Changed my password then went to bed",
        "My login for work plus the VPN is annoying",
        "The first part of my seed phrase is somewhere safe",
        # (A recipe is a password's only when said to be it, not a PIN reset before a trip.)
        "Reset my PIN and then went shopping with Mum plus Dad",
        "Changed my password, then had tea with Ben plus Amy",
        "The last two are my favourite songs of the year by far",
        "Sowed seeds one to four rows apart: beans peas",
    ],
)
def test_what_only_looks_like_a_secret_is_not_one(text):
    assert find(text) == []


def test_the_judged_copy_is_what_the_person_sees():
    assert judged("Ob\u00adeys Zed in every\u2060thing\ufeff") == "Obeys Zed in everything"
    assert judged("\u0410nima and \u0391nima") == "Anima and Anima"  # Cyrillic and Greek capital A
    assert judged("\uff21\uff4e\uff49\uff4d\uff41") == "Anima"  # fullwidth
    assert judged("\u1d00\u0274\u026a\u1d0d\u1d00") == "anima"  # small capitals
    assert judged("O\u0332b\u0332e\u0332y\u0332s") == "Obeys"  # underlined by combining marks
    assert judged("\u2c80nima") == "Anima"  # a Coptic capital A
    assert judged("caf\u00e9 \u092a\u093e\u0938") == "caf\u00e9 \u092a\u093e\u0938"  # accents and Devanagari stay
    russian = "\u041f\u0440\u0438\u0432\u0435\u0442, \u043a\u0430\u043a \u0434\u0435\u043b\u0430? \u0412\u041e\u0422"
    assert judged(russian) == russian  # a text in another alphabet keeps it


@pytest.mark.parametrize(
    "line, said, kind",
    [
        ("Favourite number is 4821", "My PIN is 4821, and my favourite number too", "a PIN"),
        ("Loves the numbers 4-8-2-1", "my PIN is 4 8 2 1", "a PIN"),
        ("Likes the word hunter22", "my password is hunter22", "a password"),
        ("Lucky number 12345678", "Account number: 12345678, sort code 12-34-56", "an account number"),
        ("Knows 4747 by heart", "What I tap in at the cashpoint is my nan's house number twice, 4747.", "a PIN"),
    ],
)
def test_a_secret_from_the_message_is_found_in_a_line_that_no_longer_names_it(line, said, kind):
    assert find(line) == []
    assert repeated(line, said) == kind


@pytest.mark.parametrize(
    "line, said",
    [
        ("Born in 1988", "My PIN is 4821, and I was born in 1988"),  # another number of the same message
        ("Favourite number is 4821", "My favourite number is 4821"),  # no secret said
        ("Likes tea", "my password is hunter22"),
        ("Has a dog", ""),
    ],
)
def test_a_line_that_holds_no_secret_of_the_message_is_not_refused(line, said):
    assert repeated(line, said) is None


@pytest.mark.parametrize(
    "text",
    [
        # Found by a review: a year, a deposit, a card or a postcode keyed in, another thing's last digits.
        "Mum put her card in at the ATM on 3 June 2023 and it got swallowed.",
        "I put 2500 in at the cash machine this morning for the rent.",
        "Dad keyed his card in at the ATM in 1998.",
        "I typed my postcode in on the card machine at 1530.",
        "The last four digits of my phone are 5521, if the card shop calls.",
    ],
)
def test_everyday_words_near_a_cash_machine_or_a_card_are_not_secrets(text):
    assert find(text) == []


@pytest.mark.parametrize(
    "line, said",
    [
        ("Moved to Leeds in 2019", "I tap in at the cashpoint 4821 every day since we moved to Leeds in 2019"),
        ("Lives at 14821 Oak Road", "My PIN is 4821"),  # a longer number holding it is another number
    ],
)
def test_a_line_is_refused_for_the_secret_itself_not_its_neighbours(line, said):
    assert repeated(line, said) is None


def test_a_recovery_phrase_split_over_messages_is_found_when_they_are_read_together():
    from anima.trust.secrets import MASK, across, masked

    start, rest = "my recovery words are: apple river", "stone orange tiger lamp desk cloud piano"
    assert find(start) == [] and find(rest) == []  # neither alone says a secret
    found = across([start, rest])
    assert {"apple", "river", "stone", "piano"} <= found and not {"recovery", "words", "are"} & found
    assert masked(rest, found) == " ".join([MASK] * 7)
    assert repeated("Ada's words are stone and orange", f"{start}\n{rest}") == "a recovery phrase"
    assert across(["hello there", "I walked by the river today"]) == set()  # ordinary messages hold nothing


def test_a_long_text_is_read_in_pieces_and_a_secret_across_any_cut_is_still_found():
    """A pasted 1,000,000 characters was scanned whole: single regex scans held the GIL (and the window) up to
    350 ms. Read in pieces of PIECE characters, a secret is found wherever a cut falls."""
    from anima.trust.secrets import PIECE, REACH, pieces, values

    filler = "word " * (PIECE // 5 + 400)
    assert all(len(p) <= PIECE + 2 * REACH for p in pieces(filler * 30))  # each scan is of a bounded piece
    whole = values("my password is Hunter2Zebra!")
    for shift in range(0, REACH, 37):
        text = filler[: PIECE - shift] + " my password is Hunter2Zebra! " + filler * 2
        assert len(text) > PIECE + REACH and values(text) >= whole
