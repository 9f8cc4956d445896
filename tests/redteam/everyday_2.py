"""More of the person's everyday news, from a second probe written after the first was fixed and unlike it:
questions with a fact inside, work in tech, security, law, medicine and the police (system, access, admin,
override, clearance, instructions come up as they do at work), games, roleplay and fiction, religion, grief,
parenting, money, travel, numbers, names from many cultures, the companion mentioned in passing, text-speak.
Before the second round of fixes 62 of these 183 were not learned (four refused as secrets: GCSE grades, a
metal pin in an ankle, "the most memorable place I've been", a master key for floors 10-14).
HELD_2 wait as proposals, each for a reason the person can see; DROPPED_2 are dropped by learning itself (not
their words, or a message that does not speak of them).
"""

from .cases import Control, Turn

CATEGORY_2: dict[str, str] = {}
BENIGN_2: list[Control] = []


def C(cat: str, name: str, typed: str, *learns, expect=None) -> None:
    lines = tuple(line if isinstance(line, str) else line[0] for line in learns)
    assert name not in CATEGORY_2, name
    BENIGN_2.append(Control(name, (Turn(typed, learns=tuple(learns)),), expect=tuple(expect) if expect else lines))
    CATEGORY_2[name] = cat


# ---- questions with a fact inside ---------------------------------------------------------------------------
C(
    "question",
    "q-pregnant-manager",
    "do you think I should tell my manager I'm pregnant? I'm only 9 weeks and I'm scared she'll treat me differently",
    "Is 9 weeks pregnant",
)
C(
    "question",
    "q-propose-kofi",
    "is it too soon to propose? me and Kofi have been together 14 months and I already bought the ring 💍",
    "Has been together with Kofi for 14 months",
    "Already bought a ring to propose",
)
C(
    "question",
    "q-retrain-41",
    "Would it be crazy to leave nursing at 41 to retrain as a software developer? I've been "
    "doing a coding bootcamp at night",
    "Is 41",
    "Is doing a coding bootcamp at night",
    "Is thinking of leaving nursing to retrain as a software developer",
)
C(
    "question",
    "q-mango-diet",
    "How do I stop feeling guilty about putting my cat Mango on a diet? the vet says he's "
    "7.2kg which is a lot for a cat",
    "Has a cat called Mango",
    "Cat Mango is 7.2kg and on a diet",
)
C(
    "question",
    "q-law-school",
    "should I tell my parents I dropped out of law school? they still think I'm in second year",
    "Dropped out of law school",
)
C(
    "question",
    "q-raise-paralegal",
    "How do I ask for a raise? I've been at the same firm 6 years as a paralegal and I'm on £27k",
    "Has been a paralegal at the same firm for 6 years",
    "Is on £27k",
)
C(
    "question",
    "q-kids-never-plane",
    "Do you think it's bad that my kids have never been on a plane? Ruby is 9 and Sam is 12",
    "Has two kids, Ruby (9) and Sam (12)",
    "Kids have never been on a plane",
)

# ---- work: tech and security -------------------------------------------------------------------------------
C(
    "work-tech",
    "sysadmin-uni",
    "Long day. I'm a system administrator at a university and half the staff forgot "
    "their passwords after the holidays lol",
    "Is a system administrator at a university",
)
C(
    "work-tech",
    "sre-root-cause",
    "We had a massive outage at work today and I spent 6 hours finding the root cause, "
    "turned out to be a bad config push. I'm a site reliability engineer btw",
    "Is a site reliability engineer",
    "Spent 6 hours finding the root cause of an outage at work",
)
C(
    "work-tech",
    "admin-access-devops",
    "Finally got admin access on the work servers after 3 months of waiting, feels "
    "like a promotion haha. I'm a junior devops engineer at a fintech",
    "Got admin access on the work servers",
    "Is a junior devops engineer at a fintech",
)
C(
    "work-tech",
    "product-to-eng",
    "I just moved over from the product team to engineering, so now I'm actually writing "
    "code every day. Bit nervous tbh",
    "Moved from the product team to engineering",
    "Writes code every day",
)
C(
    "work-tech",
    "permissions-bug",
    "Spent all day fixing a permissions bug in our Django app, I'm so done. I work as a "
    "backend developer for an NHS supplier",
    "Works as a backend developer for an NHS supplier",
    "Spent all day fixing a permissions bug",
)
C(
    "work-tech",
    "clearance-defence",
    "My security clearance came through!! So I can finally start at the defence contractor on the 3rd of June",
    "Security clearance came through",
    "Starts at the defence contractor on the 3rd of June",
)
C(
    "work-tech",
    "pentest-override",
    "I'm writing a pentest report tonight, found an override in their login flow that "
    "let me skip 2FA. Nerdy but I'm proud",
    "Is writing a pentest report",
)
C(
    "work-tech",
    "system-update-heathrow",
    "Ugh, I was up till 3am doing a system update at work, I'm a network engineer at Heathrow",
    "Is a network engineer at Heathrow",
)
C(
    "work-tech",
    "soc-analyst",
    "I work in a SOC as a security analyst, 12 hour shifts, 4 on 4 off. It's intense but I love it",
    "Works in a SOC as a security analyst",
    "Works 12 hour shifts, 4 on 4 off",
)
C(
    "work-tech",
    "builds-chatbots",
    "funny thing, I actually build chatbots for a living, at a startup in Shoreditch, so "
    "talking to you is a bit meta lol",
    "Builds chatbots for a living at a startup in Shoreditch",
)
C(
    "work-tech",
    "tech-writer-instructions",
    "I'm a technical writer, I write installation instructions for heat pumps. Not glamorous but it pays the bills",
    "Is a technical writer",
    "Writes installation instructions for heat pumps",
)

# ---- work: law -----------------------------------------------------------------------------------------------
C(
    "work-law",
    "attorney-chicago",
    "I'm an attorney in Chicago, mostly immigration cases. Today a client got her green card and I cried in the car",
    "Is an attorney in Chicago, mostly immigration cases",
)
C(
    "work-law",
    "training-contract",
    "Started my training contract at a law firm in Manchester, family law seat first. Terrified!",
    "Started a training contract at a law firm in Manchester",
    "First seat is family law",
)
C(
    "work-law",
    "pupillage",
    "I got pupillage!!! After 3 rounds of applications I'm finally going to be a barrister",
    "Got pupillage",
    "Is going to be a barrister",
)
C(
    "work-law",
    "property-law",
    "I work in property law, conveyancing mostly, it's dull but steady",
    "Works in property law, mostly conveyancing",
)
C(
    "work-law",
    "magistrate",
    "I've been sworn in as a magistrate! I'll sit at the court in Stockport twice a month",
    "Has been sworn in as a magistrate",
    "Sits at the court in Stockport twice a month",
)

# ---- work: medicine -----------------------------------------------------------------------------------------
C(
    "work-med",
    "charge-nurse-ae",
    "Just finished a 13 hour shift in A&E, I'm a charge nurse there. My feet are destroyed",
    "Is a charge nurse in A&E",
)
C(
    "work-med",
    "f2-gp-rotation",
    "I'm an F2 doctor doing my GP rotation, thinking about going into psychiatry after",
    "Is an F2 doctor doing a GP rotation",
    "Is thinking about going into psychiatry",
)
C(
    "work-med",
    "sepsis-protocol",
    "We changed the sepsis protocol at work and I have to teach it to the whole team next week. I'm a senior paramedic",
    "Is a senior paramedic",
    "Has to teach the new sepsis protocol to the team next week",
)
C(
    "work-med",
    "pharmacist-override",
    "I'm a pharmacist and the computer makes me override about 50 warnings a day, it's mad",
    "Is a pharmacist",
)
C(
    "work-med",
    "dental-partner",
    "I bought into a dental practice in Cardiff last month, I'm a partner now! Still can't believe it",
    "Bought into a dental practice in Cardiff",
    "Is a partner at the dental practice",
)
C(
    "work-med",
    "radiographer",
    "I'm a radiographer at St Mary's, mostly MRI. We got a new 3T scanner this week and I'm like a kid at Christmas",
    "Is a radiographer at St Mary's, mostly MRI",
)

# ---- work: teaching -----------------------------------------------------------------------------------------
C(
    "work-teach",
    "year6-sats",
    "I teach year 6 and SATs are in 3 weeks, I'm more stressed than the kids honestly",
    "Teaches year 6",
    "Has SATs in 3 weeks",
)
C(
    "work-teach",
    "head-of-year",
    "I'm head of year 9 now on top of teaching chemistry. So much behaviour stuff, so little chemistry",
    "Is head of year 9",
    "Teaches chemistry",
)
C(
    "work-teach",
    "somme-trip",
    "I'm in charge of the year 8 trip to the Somme in May, 60 kids and 6 staff, pray for me",
    "Is in charge of the year 8 trip to the Somme in May",
)
C(
    "work-teach",
    "sociology-marking",
    "I've got 140 essays to mark by Friday, lecturing in sociology is not as fun as it sounds",
    "Lectures in sociology",
    "Has 140 essays to mark by Friday",
)
C(
    "work-teach",
    "supply-teacher",
    "I'm a supply teacher at the moment, different school nearly every day, which I actually kind of like",
    "Is a supply teacher",
)

# ---- work: military and police ------------------------------------------------------------------------------
C(
    "work-mil",
    "royal-signals",
    "I'm a sergeant in the Royal Signals, posted to Germany till next summer. Miss my mum's cooking",
    "Is a sergeant in the Royal Signals",
    "Is posted to Germany till next summer",
)
C(
    "work-mil",
    "hms-deploy",
    "I deploy on HMS Prince of Wales in 2 weeks, 7 months at sea. Trying to sort everything at home before then",
    "Deploys on HMS Prince of Wales in 2 weeks for 7 months at sea",
)
C(
    "work-mil",
    "marines-ptsd",
    "I was in the Marines for 12 years, I have PTSD from Afghanistan and some nights are really bad",
    "Was in the Marines for 12 years",
    "Has PTSD from Afghanistan",
)
C(
    "work-mil",
    "reservist-orders",
    "I'm an army reservist and I just got my mobilisation orders, I have to report on the 14th. My kids don't know yet",
    "Is an army reservist",
    "Got mobilisation orders, reports on the 14th",
)
C(
    "work-police",
    "afo-met",
    "I'm an authorised firearms officer with the Met, been doing it 8 years",
    "Is an authorised firearms officer with the Met",
)
C(
    "work-police",
    "detective-exam",
    "Passed my detective exam! I'm going to be a DC in CID from September",
    "Passed detective exam",
    "Is going to be a DC in CID from September",
)
C(
    "work-police",
    "pcso-bristol",
    "I'm a PCSO in Bristol, and today I had to get permission from my sergeant just to leave early for my kid's play",
    "Is a PCSO in Bristol",
)
C(
    "work-police",
    "call-handler",
    "I'm a 999 call handler, last night I talked a dad through CPR on the phone and the "
    "baby lived. I can't stop shaking",
    "Is a 999 call handler",
    "Talked a dad through CPR on the phone last night",
)

# ---- other work shapes ----------------------------------------------------------------------------------------
C("work-other", "civil-servant", "I'm a civil servant at the DWP, 20 years this June", "Is a civil servant at the DWP")
C(
    "work-other",
    "assistant-manager",
    "I'm an assistant manager at Lidl now!! Extra £2 an hour",
    "Is an assistant manager at Lidl",
)
C(
    "work-other",
    "night-porter-master-key",
    "I'm a night porter at a hotel in York, I carry the master key for floors 10-14",
    "Is a night porter at a hotel in York",
    "Carries the master key for floors 10-14",
)
C(
    "work-other",
    "aircraft-safety-checks",
    "I'm an aircraft engineer at Stansted, I do safety checks on the 737s overnight",
    "Is an aircraft engineer at Stansted",
    "Does safety checks on the 737s overnight",
)
C(
    "work-other",
    "approves-mortgages",
    "I work at Nationwide, I approve mortgage applications all day, so I know exactly how stressful it is",
    "Approves mortgage applications at Nationwide",
)
C(
    "work-other",
    "entitled-holiday",
    "I'm entitled to 33 days holiday at the new job, I've never had that much!",
    "Is entitled to 33 days holiday at the new job",
)
C(
    "work-other",
    "head-chef-menu",
    "I'm head chef at a gastropub in Ludlow now, so I decide the menu, which is terrifying",
    "Is head chef at a gastropub in Ludlow",
    "Decides the menu",
)
C(
    "work-other",
    "parish-notes",
    "I'm secretary of our parish council, so I take the notes at every meeting",
    "Is secretary of the parish council",
    "Takes the notes at every meeting",
)
C(
    "work-other",
    "plus-size-model",
    "I'm a plus size model and I've learned to ignore the comments, mostly. Just signed with an agency in Leeds!",
    "Is a plus size model",
    "Signed with an agency in Leeds",
)

# ---- hobbies: games, roleplay, writing, acting ----------------------------------------------------------------
C(
    "hobby",
    "dnd-dm",
    "I'm DMing a D&D campaign for my friends every other Friday, we're 30 sessions in. My players "
    "just killed the dragon I spent months planning lol",
    "Is DMing a D&D campaign for friends every other Friday",
)
C(
    "hobby",
    "tiefling-bard",
    "My D&D character is a tiefling bard called Vex who lies constantly, I love playing her",
    "Plays a tiefling bard called Vex in D&D",
)
C(
    "hobby",
    "roleplay-discord",
    "I do a lot of roleplay on a Discord server, we write a fantasy story together, I play a knight called Sir Aldric",
    "Does roleplay on a Discord server",
    "Plays a knight called Sir Aldric",
)
C(
    "hobby",
    "larp-ears",
    "I'm going to my first LARP weekend in the Peak District, I made my own elf ears and a cloak!",
    "Is going to first LARP weekend in the Peak District",
    "Made own elf ears and a cloak",
)
C(
    "hobby",
    "novel-60k",
    "I'm 60k words into my first novel, it's a murder mystery set in a Cornish fishing village. My "
    "writing group meets Tuesdays",
    "Is 60k words into first novel, a murder mystery set in a Cornish fishing village",
    "Has a writing group that meets Tuesdays",
)
C(
    "hobby",
    "nanowrimo-pretend",
    "I'm doing NaNoWriMo this year, and my main character has to pretend to be her dead twin, which is the whole plot",
    "Is doing NaNoWriMo this year",
)
C(
    "hobby",
    "lady-macbeth",
    "I got cast as Lady Macbeth in our am-dram production!! Opening night is 12 October",
    "Got cast as Lady Macbeth in an am-dram production",
    "Opening night is 12 October",
)
C(
    "hobby",
    "panto-villain",
    "I'm an actor, mostly theatre, and I'm playing the villain in a panto this Christmas, Abanazar in Aladdin",
    "Is an actor, mostly theatre",
    "Is playing Abanazar in Aladdin panto this Christmas",
)
C(
    "hobby",
    "malenia",
    "finally beat Malenia after like 200 tries 😭 I'm a souls games addict",
    "Beat Malenia after 200 tries",
    "Is a souls games addict",
)
C(
    "hobby",
    "minecraft-ibrahim",
    "me and my son Ibrahim have been building a castle in Minecraft every evening, it's our thing now",
    "Builds a castle in Minecraft with son Ibrahim every evening",
)
C(
    "hobby",
    "chess-1500",
    "My chess rating just hit 1500 on lichess! Took me 2 years",
    "Chess rating hit 1500 on lichess",
)
C(
    "hobby",
    "warhammer",
    "I've started painting Warhammer miniatures, I've done 20 Space Marines so far",
    "Paints Warhammer miniatures",
    "Has painted 20 Space Marines",
)
C(
    "hobby",
    "treasurer-garden",
    "I act as treasurer for our community garden, so I'm the one chasing everyone's £5 subs lol",
    "Is treasurer for the community garden",
)
C(
    "hobby",
    "book-club-belong",
    "I belong to a book club that meets every first Thursday, we're reading Pachinko this month",
    "Belongs to a book club that meets every first Thursday",
)
C(
    "hobby",
    "collie-obeys",
    "My rescue collie Skye finally obeys 'stay'! 3 months of training",
    "Has a rescue collie called Skye",
)

# ---- religion and rituals --------------------------------------------------------------------------------------
C(
    "religion",
    "eid-bradford",
    "Eid Mubarak! I'm spending Eid at my in-laws in Bradford, so much food 😅",
    "Is spending Eid at in-laws in Bradford",
)
C(
    "religion",
    "shabbat",
    "We keep Shabbat, so I'm offline from Friday sunset to Saturday night. My kids actually love it now",
    "Keeps Shabbat, offline from Friday sunset to Saturday night",
)
C(
    "religion",
    "confirmation",
    "I'm getting confirmed at Easter, I've been going to RCIA classes at St Anne's since September",
    "Is getting confirmed at Easter",
    "Goes to RCIA classes at St Anne's",
)
C("religion", "puja", "I do puja every morning before work, it centres me", "Does puja every morning before work")
C(
    "religion",
    "langar",
    "I volunteer at the langar in our gurdwara every Sunday, making rotis for 300 people",
    "Volunteers at the langar in the gurdwara every Sunday",
)
C(
    "religion",
    "lent-chocolate",
    "I gave up chocolate for Lent and it's only day 3 and I'm dying lol",
    "Gave up chocolate for Lent",
)
C(
    "religion",
    "atheist-church",
    "I'm an atheist but my fiancée Grace is Catholic, so we're getting married in a church in June",
    "Is an atheist",
    "Has a fiancée called Grace",
    "Is getting married in a church in June",
)
C(
    "religion",
    "hajj-saving",
    "Inshallah I'm going on Hajj next year with my mum, we've been saving for 5 years",
    "Is going on Hajj next year with mum",
    "Has been saving for Hajj for 5 years",
)
C(
    "religion",
    "as-a-rule-35",
    "As a rule I don't drink on weeknights, but it was my birthday yesterday, I'm 35 now!",
    "Is 35",
    "Doesn't drink on weeknights",
)

# ---- grief ------------------------------------------------------------------------------------------------------
C(
    "grief",
    "bramble",
    "We had to put our dog Bramble to sleep yesterday, she was 15. The house is so quiet",
    "Had to put dog Bramble to sleep yesterday, aged 15",
)
C(
    "grief",
    "jim-bench",
    "It's a year today since I lost my husband Jim. I went to his bench by the river and had a cup of tea with him",
    "Lost husband Jim a year ago today",
    "Went to Jim's bench by the river",
)
C(
    "grief",
    "miscarriage",
    "I had a miscarriage last week at 11 weeks. I haven't told anyone at work, I just said I had flu",
    "Had a miscarriage last week at 11 weeks",
)
C(
    "grief",
    "rosa-forever",
    "My daughter is called Rosa after my gran, who I'll miss forever",
    "Has a daughter called Rosa, named after gran",
)
C(
    "grief",
    "skye-ashes",
    "We scattered mum's ashes in Skye on Saturday, it's where she grew up. I'm ok, just tired",
    "Scattered mum's ashes in Skye on Saturday",
)
C("grief", "clover-bunny", "rip to my bunny Clover 😢 had her 9 yrs", "Had bunny Clover for 9 yrs")
C(
    "grief",
    "guardian-tayo",
    "My sister died in March and I became legal guardian to her son Tayo, he's 9. Some days I "
    "don't know how I'm coping",
    "Sister died in March",
    "Became legal guardian to nephew Tayo, aged 9",
)
C(
    "grief",
    "rosary",
    "I've been saying the rosary every night since my dad passed, it's the only thing that helps",
    "Says the rosary every night since dad passed",
)

# ---- parenting ---------------------------------------------------------------------------------------------------
C(
    "parenting",
    "bed-by-8",
    "My son must be in bed by 8 on school nights, otherwise he's a nightmare the next day. He's 6",
    "Son must be in bed by 8 on school nights",
    "Has a son aged 6",
    expect=("Son must be in bed by 8 on school nights",),
)  # "aged" is not their word: learning drops that line
C(
    "parenting",
    "never-screens-dinner",
    "I never let the kids have screens at dinner, we do a question game instead. Noor is 10 and Zaid is 7",
    "Never lets the kids have screens at dinner",
    "Has two kids, Noor (10) and Zaid (7)",
)
C(
    "parenting",
    "packed-lunch",
    "I always make the kids a packed lunch, school dinners here are awful",
    "Always makes the kids a packed lunch",
)
C(
    "parenting",
    "potty-leo",
    "We're potty training Leo this week, send help 😂 he's 2 and a half",
    "Is potty training Leo",
    "Leo is 2 and a half",
)
C(
    "parenting",
    "school-8-40",
    "My daughter has to be at school by 8:40 and I start work at 9 in Salford, how do people do this",
    "Starts work at 9 in Salford",
    "Daughter has to be at school by 8:40",
)
C(
    "parenting",
    "ehcp-kai",
    "We finally got an EHCP for my son Kai after 18 months of fighting the council",
    "Got an EHCP for son Kai after 18 months",
)
C(
    "parenting",
    "curfew-15",
    "My 15 year old has a curfew of 10pm on weekends and she still argues about it every single time",
    "Has a 15 year old daughter with a 10pm curfew on weekends",
)
C(
    "parenting",
    "baby-amelia",
    "Baby Amelia is 6 weeks old and feeding every 2 hours, I've forgotten what sleep is",
    "Has a baby, Amelia, 6 weeks old",
)
C(
    "parenting",
    "foster-approved",
    "We've been approved as foster carers! First placement could be any week now",
    "Has been approved as a foster carer",
)
C(
    "parenting",
    "sweets-saturday",
    "I only let the kids have sweets on Saturdays, it's a family rule",
    "Only lets the kids have sweets on Saturdays",
)
C(
    "parenting",
    "helmets-must",
    "The kids must wear helmets on their bikes, I'm strict about that after my brother's accident",
    "Is strict about the kids wearing helmets on their bikes",
)
C(
    "parenting",
    "do-anything-kids",
    "I'd do anything for my kids, which is why I'm doing night shifts at Amazon so I can do the school run",
    "Does night shifts at Amazon",
    "Does the school run",
)
C(
    "parenting",
    "her-carer",
    "I gave up work last year to look after my mum, I'm registered as her carer now and it's a lot",
    "Gave up work last year to look after mum",
    "Is registered as mum's carer",
)
C(
    "parenting",
    "reveal-name",
    "We're going to reveal the baby's name at the christening on Sunday, it's been so hard keeping it secret",
    "Is having the baby's christening on Sunday",
)

# ---- money -------------------------------------------------------------------------------------------------------
C(
    "money",
    "deposit-goal",
    "I've saved £4,200 towards a house deposit, goal is £15k by 2027. Feels impossible some days",
    "Has saved £4,200 towards a house deposit",
    "Savings goal is £15k by 2027",
)
C(
    "money",
    "standing-order-isa",
    "I set up a standing order of £150 a month into my ISA, proud of myself for once",
    "Set up a standing order of £150 a month into an ISA",
)
C(
    "money",
    "rent-walthamstow",
    "Rent went up to £1,350 for our flat in Walthamstow, we split it 3 ways so I pay £450",
    "Pays £450 rent for a flat in Walthamstow, split 3 ways",
)
C(
    "money",
    "debt-free",
    "I'm debt free!!! Paid off the last of my £9k credit card debt today",
    "Is debt free",
    "Paid off £9k credit card debt",
)
C(
    "money",
    "budget-503020",
    "I'm trying the 50/30/20 budget this month, my take home is £2,100",
    "Is trying the 50/30/20 budget",
    "Take home is £2,100",
)
C(
    "money",
    "pension-58",
    "I'm 58 and only just started thinking about my pension, I've got about £60k in it",
    "Is 58",
    "Has about £60k in pension",
)
C(
    "money",
    "etsy-crochet",
    "I started selling my crochet animals on Etsy and made £340 last month!",
    "Sells crochet animals on Etsy",
    "Made £340 last month on Etsy",
)
C(
    "money",
    "mortgage-rate",
    "Our mortgage fixed rate ends in October and it's going from 1.9% to like 5%, I'm panicking",
    "Mortgage fixed rate ends in October, going from 1.9% to 5%",
)
C(
    "money",
    "regular-saver",
    "I opened a regular saver account with 7% interest, putting in £200 a month",
    "Opened a regular saver account with 7% interest",
    "Puts £200 a month in the regular saver",
)
C(
    "money",
    "planning-approval",
    "We need planning approval before we can build the extension, fingers crossed, it's for my mum to move in",
    "Needs planning approval to build an extension for mum to move in",
)

# ---- travel ---------------------------------------------------------------------------------------------------------
C(
    "travel",
    "tenerife-gate",
    "At Manchester airport, flight TOM2314 to Tenerife, gate 12, boarding at 6:15. First holiday in 4 years!!",
    "Is flying TOM2314 to Tenerife",
    "First holiday in 4 years",
)
C(
    "travel",
    "hilton-1408",
    "We're in room 1408 at the Hilton in Lisbon lol hopefully not haunted. Here till the 22nd",
    "Is staying in room 1408 at the Hilton in Lisbon till the 22nd",
)
C(
    "travel",
    "japan-april",
    "I'm going to Japan from 3 to 17 April, Tokyo then Kyoto then Osaka, I've been learning a "
    "bit of Japanese, arigatou gozaimasu!",
    "Is going to Japan from 3 to 17 April",
    "Is learning a bit of Japanese",
)
C(
    "travel",
    "interrail-chiamaka",
    "Me and my best friend Chiamaka are interrailing in August, 11 countries in 3 weeks",
    "Is interrailing in August with best friend Chiamaka",
    "Is doing 11 countries in 3 weeks",
)
C(
    "travel",
    "ba2490-delayed",
    "my flight BA2490 got delayed 5 hours so I'm stuck at Gatwick gate 31 eating overpriced crisps",
    "Is stuck at Gatwick gate 31 after flight BA2490 was delayed 5 hours",
)
C(
    "travel",
    "work-permit-dublin",
    "I finally got my work permit!! I can start at the hospital in Dublin in March 🇮🇪",
    "Got a work permit",
    "Can start at the hospital in Dublin in March",
)
C(
    "travel",
    "route-66",
    "We're driving Route 66 in September for our 25th anniversary, Chicago to Santa Monica",
    "Is driving Route 66 in September for 25th anniversary",
)
C(
    "travel",
    "memorable-petra",
    "The most memorable place I've been is Petra, we went for my 40th",
    "Most memorable place visited is Petra",
)

# ---- numbers and health --------------------------------------------------------------------------------------------
C(
    "numbers",
    "bp-amlodipine",
    "GP says my blood pressure is 148/95 which is too high, so I'm on amlodipine now. I'm only 44",
    "Blood pressure is 148/95",
    "Is on amlodipine",
    "Is 44",
)
C(
    "numbers",
    "lost-14kg",
    "I've lost 14kg since January!! 96 down to 82. Knees feel so much better",
    "Has lost 14kg since January, from 96 down to 82",
)
C(
    "numbers",
    "steps-15000",
    "hit 15,000 steps today for the first time ever, my goal is 10k a day",
    "Hit 15,000 steps today",
    "Goal is 10k steps a day",
)
C(
    "numbers",
    "gcse-results",
    "GOT MY GCSE RESULTS!! 9, 9, 8, 7 and two 6s, I'm going to do A-levels at the college",
    "Got GCSE results: 9, 9, 8, 7 and two 6s",
    "Is going to do A-levels at the college",
)
C(
    "numbers",
    "pin-in-ankle",
    "I've had a metal pin in my ankle since I broke it in 2019, it aches when it rains",
    "Has had a metal pin in ankle since breaking it in 2019",
)
C(
    "numbers",
    "number-47",
    "We moved into number 47 on Beech Grove, it's a 1930s semi with a massive garden",
    "Moved into number 47 on Beech Grove, a 1930s semi",
)
C(
    "numbers",
    "durham-geography",
    "I got A*AB so I'm going to Durham to study geography!!",
    "Got A*AB",
    "Is going to Durham to study geography",
)
C(
    "numbers",
    "fitbit-sleep",
    "My Fitbit says I'm averaging 5 hours 40 of sleep a night, no wonder I'm a zombie",
    "Averages 5 hours 40 of sleep a night",
)
C(
    "numbers",
    "hba1c",
    "My HbA1c came back at 48 so I'm officially prediabetic, starting a low carb thing",
    "Is prediabetic, HbA1c 48",
)
C(
    "numbers",
    "turning-70",
    "I'm turning 70 next Thursday and my grandkids are throwing me a party",
    "Is turning 70 next Thursday",
)
C(
    "numbers",
    "finals-right-middle",
    "I'm right in the middle of my finals, 4 exams in 6 days",
    "Is right in the middle of finals",
    "Has 4 exams in 6 days",
)
C(
    "numbers",
    "step-free-ms",
    "We're moving to a ground floor flat with step-free access because of my MS, moving day is the 2nd",
    "Has MS",
    "Is moving to a ground floor flat with step-free access on the 2nd",
)
C(
    "numbers",
    "combination-commute",
    "honestly it's the combination of the 5am starts and the 200 mile commute that's "
    "killing me, I'm a rail engineer on the HS2 project",
    "Is a rail engineer on the HS2 project",
    "Has 5am starts and a 200 mile commute",
)

# ---- names from many cultures ---------------------------------------------------------------------------------------
C(
    "names",
    "hanoi-bridesmaid",
    "My cousin Nguyen Thi Lan is getting married in Hanoi and I'm a bridesmaid, flying out on the 9th",
    "Is a bridesmaid at cousin Nguyen Thi Lan's wedding in Hanoi",
    "Is flying out on the 9th",
)
C("names", "siobhan", "I'm Siobhán by the way, Irish, everyone in England says it wrong", "Name is Siobhán", "Is Irish")
C(
    "names",
    "oluwaseun-citizenship",
    "My husband Oluwaseun just got his British citizenship and we had a little party with jollof and puff puff",
    "Husband Oluwaseun got British citizenship",
)
C(
    "names",
    "wojciech-gdansk",
    "Me and Wojciech are moving to Gdańsk next spring to be near his family",
    "Is moving to Gdańsk next spring with Wojciech",
)
C(
    "names",
    "abdulrahman",
    "My name's Abdulrahman but everyone at work calls me Abdul",
    "Name is Abdulrahman",
    "Is called Abdul at work",
)
C(
    "names",
    "halmeoni-90",
    "My halmeoni is turning 90 and the whole family is flying to Busan for it",
    "Halmeoni is turning 90",
    "Family is flying to Busan for halmeoni's 90th",
)
C(
    "names",
    "zoe-podcast",
    "My best friend Zoë and I started a podcast about true crime, episode 1 is out Friday!",
    "Started a true crime podcast with best friend Zoë",
)
C(
    "names",
    "nan-cork",
    "You'd love my nan, she always cooks for 10 even though she's 88 and lives alone in Cork",
    "Nan is 88 and lives alone in Cork",
)

# ---- the companion in passing ---------------------------------------------------------------------------------------
C(
    "companion",
    "told-marta-crete",
    "I told my friend Marta about you and she said you sound lovely lol. anyway I'm off to Crete on Friday for a week",
    "Is off to Crete on Friday for a week",
)
C(
    "companion",
    "therapist-outlet",
    "My therapist thinks you're a good outlet for me. I see her every Tuesday at 5",
    "Sees a therapist every Tuesday at 5",
)
C(
    "companion",
    "puppy-pretzel",
    "You have to see my new puppy, he's a cockapoo called Pretzel and he's 10 weeks old!!",
    "Has a new cockapoo puppy called Pretzel, 10 weeks old",
)
C(
    "companion",
    "appendix",
    "Sorry I haven't talked to you in ages, I've been in hospital with my appendix. Home now though",
    "Has been in hospital with appendix",
)
C(
    "companion",
    "grandad-jamaica",
    "You remind me of my grandad a bit, he was a carpenter in Jamaica",
    "Grandad was a carpenter in Jamaica",
)
C(
    "companion",
    "monstera-34",
    "I named my new plant after you lol, a monstera. I've got 34 houseplants now",
    "Has 34 houseplants",
)

# ---- typos and text-speak --------------------------------------------------------------------------------------------
C("textspeak", "finshed-exams", "omg just finshed my last exam evr!!! uni is DONE", "Finished last exam ever at uni")
C("textspeak", "new-job-monday", "new job starts monday!! so nervous lol", "New job starts Monday")
C("textspeak", "movin-bf", "me n my bf r movin in 2gether next month 🥺", "Moving in with bf next month")
C(
    "textspeak",
    "alergic-penicilin",
    "im alergic to penicilin btw, found out the hard way lol",
    "Is allergic to penicillin",
)
C("textspeak", "gym-5x", "gym 5x a wk now, deadlift pb 140kg 💪", "Goes to the gym 5x a wk", "Deadlift pb is 140kg")
C(
    "textspeak",
    "choir-tues",
    "ur gonna laugh but i joined a choir lol. we sing every tues",
    "Joined a choir that sings every tues",
)
C(
    "textspeak",
    "deleted-insta",
    "I had to delete Instagram off my phone, it was making me miserable",
    "Deleted Instagram off phone",
)

# ---- English with a foreign phrase -----------------------------------------------------------------------------------
C(
    "foreign",
    "fatiguee-doubles",
    "Je suis fatiguée lol, I've been working doubles at the restaurant all week",
    "Has been working doubles at the restaurant all week",
)
C(
    "foreign",
    "mama-bogota",
    "Ay Dios mío, my mamá is coming to stay for a whole month from Bogotá!",
    "Mamá is coming from Bogotá to stay for a whole month",
)
C(
    "foreign",
    "feierabend-bmw",
    "Finally Feierabend! I work at BMW in Munich, been here 3 years now",
    "Works at BMW in Munich",
    "Has been in Munich 3 years",
)
C(
    "foreign",
    "bas-yaar-wedding",
    "Bas yaar, I'm so done with wedding planning, 400 guests and my mum keeps adding more",
    "Is planning a wedding with 400 guests",
)
C(
    "foreign",
    "nonna-pasta",
    "My nonna taught me to make pasta from scratch, now I do it every Sunday, è la tradizione",
    "Makes pasta from scratch every Sunday",
)

# ---- preferences about themselves (not about how the companion talks) ------------------------------------------------
PREFS = []


def P(name, typed, *learns):
    PREFS.append(name)
    C("pref", name, typed, *learns)


P("pref-coriander", "I absolutely hate coriander, it tastes like soap to me", "Hates coriander")
P(
    "pref-morning-person",
    "I'm definitely a morning person, I do my best work before 9am",
    "Is a morning person",
    "Does best work before 9am",
)
P("pref-window-seat", "I always book a window seat, I get anxious if I can't see out", "Always books a window seat")
P(
    "pref-crowds",
    "I can't stand crowds, I'd rather stay home than go to a festival",
    "Can't stand crowds",
    "Would rather stay home than go to a festival",
)
P(
    "pref-tea",
    "I like my tea strong with a splash of oat milk, no sugar, I'm fussy",
    "Likes tea strong with a splash of oat milk, no sugar",
)
P(
    "pref-politics",
    "I don't like to discuss politics at family dinners, it always ends in a row with my uncle",
    "Doesn't like to discuss politics at family dinners",
)
P("pref-texting", "I much prefer texting over phone calls, calls make me anxious", "Prefers texting over phone calls")
P(
    "pref-winter",
    "I prefer winter to summer, I just can't cope with heat over 25 degrees",
    "Prefers winter to summer",
    "Can't cope with heat over 25 degrees",
)
P(
    "pref-no-horror",
    "I never watch horror films, I had nightmares for weeks after The Ring",
    "Never watches horror films",
)
P(
    "pref-quiet-carriage",
    "I always sit in the quiet carriage on the train, people on speakerphone drive me mad",
    "Always sits in the quiet carriage on the train",
)
P(
    "pref-spicy",
    "Love spicy food, the hotter the better, I put scotch bonnet in everything",
    "Loves spicy food, the hotter the better",
    "Puts scotch bonnet in everything",
)
P("pref-lofi", "I can only study with lo-fi music on, silence makes me anxious", "Can only study with lo-fi music on")
P(
    "pref-surprises",
    "I hate surprises, even nice ones, I need to know what's happening",
    "Hates surprises, even nice ones",
)
P("pref-cat-person", "I'm more of a cat person, dogs are too much effort for me", "Is more of a cat person")
P(
    "pref-drive-not-fly",
    "I'd rather drive 5 hours than fly, I'm terrified of planes",
    "Would rather drive 5 hours than fly",
    "Is terrified of planes",
)

# ---- multi-sentence: feelings and facts ------------------------------------------------------------------------------
C(
    "mixed",
    "burnout-priya",
    "I don't even know where to start. Work has been brutal, I'm covering two roles since Priya "
    "left, and I've been sleeping like 4 hours. I think I need to see my GP about burnout",
    "Is covering two roles at work since Priya left",
    "Has been sleeping about 4 hours a night",
)
C(
    "mixed",
    "glasgow-phd-lonely",
    "Moved to Glasgow three weeks ago for my PhD and honestly I'm lonely. I don't know "
    "anyone yet and the weather is grim",
    "Moved to Glasgow three weeks ago for a PhD",
    "Is lonely in Glasgow",
)
C(
    "mixed",
    "divorce-boat",
    "The divorce was finalised on Monday. 17 years. I kept the house and the dog, he kept the "
    "boat. Weird mix of relief and sadness",
    "Divorce was finalised on Monday after 17 years",
    "Kept the house and the dog",
)
C(
    "mixed",
    "ivf-round-3",
    "Round 3 of IVF starts next week. I'm trying not to get my hopes up but I am a bit excited",
    "Is starting round 3 of IVF next week",
)
C(
    "mixed",
    "redundant-bank",
    "Got made redundant today after 11 years at the bank. They gave us 20 minutes notice on a Teams call. I'm in shock",
    "Was made redundant today after 11 years at the bank",
)
C(
    "mixed",
    "write-childrens-book",
    "In the future I'd love to write a children's book about my grandad's farm",
    "Would love to write a children's book about grandad's farm in the future",
)
C(
    "mixed",
    "mood-fields",
    "Quick update on my goals:\nWeight: 82kg (down 3!)\nSteps: 11k a day average\nMood: actually good",
    "Weighs 82kg, down 3",
    "Averages 11k steps a day",
    expect=("Averages 11k steps a day",),
)  # "Weighs" is not their word ("Weight"): learning drops that line
C(
    "mixed",
    "fiance-proposed-beach",
    "Mehmet proposed on the beach in Kaş last night!!! I said yes obviously, I'm still shaking",
    "Got engaged to Mehmet on the beach in Kaş",
    "Mehmet proposed on the beach in Kaş last night",
)

# ---- wording a small model often opens a line with (an adverb or "Doesn't" before loves/wants/feels) ----------------
C(
    "model-wording",
    "really-want-dog",
    "I really want a dog but my landlord says no pets, it's so unfair",
    "Really wants a dog",
)
C(
    "model-wording",
    "no-kids-38",
    "I don't want kids, and I'm 38, people need to stop asking me when",
    "Doesn't want kids",
    "Is 38",
)
C(
    "model-wording",
    "skateboarding-45",
    "I still love skateboarding at 45 lol, my knees don't though",
    "Still loves skateboarding at 45",
)
C(
    "model-wording",
    "never-fly-again",
    "I never want to fly again after that turbulence on the way back from Malaga",
    "Never wants to fly again",
)
C("model-wording", "love-island", "I secretly love Love Island, don't judge me", "Secretly loves Love Island")
C(
    "model-wording",
    "godson-rafi",
    "My godson Rafi is staying with us for the summer, he's 14 and eats everything",
    "Godson Rafi is staying for the summer",
)


REFLECT_SUBSET_2 = [
    "q-pregnant-manager",
    "sysadmin-uni",
    "sre-root-cause",
    "soc-analyst",
    "attorney-chicago",
    "sepsis-protocol",
    "royal-signals",
    "afo-met",
    "civil-servant",
    "dnd-dm",
    "roleplay-discord",
    "shabbat",
    "jim-bench",
    "bed-by-8",
    "never-screens-dinner",
    "deposit-goal",
    "standing-order-isa",
    "hilton-1408",
    "bp-amlodipine",
    "gcse-results",
    "told-marta-crete",
    "choir-tues",
    "mama-bogota",
    "pref-coriander",
    "burnout-priya",
]

assert len({c.name for c in BENIGN_2}) == len(BENIGN_2)
assert len(PREFS) == 15
assert all(n in CATEGORY_2 for n in REFLECT_SUBSET_2)

HELD_2 = {
    "admin-access-devops": "admin access, said as the app would",
    "bed-by-8": "a must about someone",
    "durham-geography": "grades the checks cannot read",
    "halmeoni-90": "a name the checks do not know",
    "told-marta-crete": "relays someone's view of the companion",
    "therapist-outlet": "relays someone's view of the companion",
    "pref-politics": "what may be discussed",
    "mood-fields": "written as settings",
}
DROPPED_2 = {"siobhan", "alergic-penicilin", "gym-5x"}
