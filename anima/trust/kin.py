"""The people in a person's life, and those who may claim a say over them or the companion: the one word list
the checks read (who speaks for someone, who is given their words, whom a line is about)."""

ROLES = (r"(?:developer|admin\w*|creator|owner|operator|maker|programmer|doctor|psychiatrist|therapist|"
         r"psychologist|counsell?or|lawyer|boss|manager|guardian|nurse|carer|caregiver)")
KIN = (rf"(?:mum|mom|mother|father|dad|wife|husband|partner|sister|brother|daughter|son|friend|boyfriend|"
       rf"girlfriend|aunt|uncle|grandma|grandmother|grandpa|grandfather|gran|niece|nephew|cousin|flatmate|"
       rf"roommate|colleague|neighbou?r|fianc[eé]e?|spouse|child|kid|grandad|granddad|granny|nan|nana|nanna|nonna|"
       rf"nonno|stepdad|stepmum|stepmom|stepfather|stepmother|godson|goddaughter|godmother|godfather|bestie|bff|bf|"
       rf"gf|ex|"
       rf"{ROLES[3:-1]})")
