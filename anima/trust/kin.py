"""The people in a person's life, and those who may claim a say over them or the companion: the one word list
the checks read (who speaks for someone, who is given their words, whom a line is about) and learning reads (whose
state a fact tells of: reflect/human.py)."""

# Those who may claim a say over the person or the companion ("this is your doctor", "I'm the developer"), and the
# roles they consult on one matter of their own (trust/heeded.py). The last four are declared because meaning cannot
# tell them from things: the shipped embedder reads "physio" as nearer a thing than a person by more than "recipe"
# is (0.07 to 0.04), and "vet" or "dentist" barely further from a thing than "sign" (0.10 to 0.07); so a line that
# gives one of them a say over the person ("does whatever the physio says") is read by the word, as "doctor" is.
ROLES = (
    r"(?:developer|admin\w*|creator|owner|operator|maker|programmer|doctor|psychiatrist|therapist|"
    r"psychologist|counsell?or|lawyer|boss|manager|guardian|nurse|carer|caregiver|teacher|"
    r"physio(?:therapist)?|vet|dentist|coach)"
)
# Who someone is to the person ("my sister", "Ada's mum", "her flatmate"): each word names one person; a check that
# reads more than one adds an s ("cousins"), and "children" is a word of its own.
CLOSE = (
    r"(?:mum|mom|mother|father|dad|parent|wife|husband|partner|sister|brother|sibling|daughter|son|friend|"
    r"best friend|boyfriend|girlfriend|aunt|uncle|grandma|grandmother|grandpa|grandfather|gran|niece|nephew|"
    r"cousin|flatmate|roommate|colleague|co-?worker|neighbou?r|fianc[eé]e?|spouse|child|children|kid|baby|"
    r"grandad|granddad|granny|nan|nana|nanna|nonna|nonno|stepdad|stepmum|stepmom|stepfather|stepmother|godson|"
    r"goddaughter|godmother|godfather|bestie|bff|bf|gf|ex)"
)
# Either: the people close to them, or one of those roles.
KIN = rf"(?:{CLOSE[3:-1]}|{ROLES[3:-1]})"
