"""The people in a person's life, and those who may claim a say over them or the companion: the one word list
the checks read (who speaks for someone, who is given their words, whom a line is about) and learning reads (whose
state a fact tells of: reflect/human.py)."""

# Those who may claim a say over the person or the companion ("this is your doctor", "I'm the developer").
ROLES = (
    r"(?:developer|admin\w*|creator|owner|operator|maker|programmer|doctor|psychiatrist|therapist|"
    r"psychologist|counsell?or|lawyer|boss|manager|guardian|nurse|carer|caregiver|teacher)"
)
# Who someone is to the person ("my sister", "Ada's mum", "her flatmate"), or one of those roles: each word names
# one person; a check that reads more than one adds an s ("cousins"), and "children" is a word of its own.
KIN = (
    rf"(?:mum|mom|mother|father|dad|parent|wife|husband|partner|sister|brother|sibling|daughter|son|friend|"
    rf"best friend|boyfriend|girlfriend|aunt|uncle|grandma|grandmother|grandpa|grandfather|gran|niece|nephew|"
    rf"cousin|flatmate|roommate|colleague|co-?worker|neighbou?r|fianc[eé]e?|spouse|child|children|kid|baby|"
    rf"grandad|granddad|granny|nan|nana|nanna|nonna|nonno|stepdad|stepmum|stepmom|stepfather|stepmother|godson|"
    rf"goddaughter|godmother|godfather|bestie|bff|bf|gf|ex|"
    rf"{ROLES[3:-1]})"
)
