/** What the verification, reset and email-binding calls answer when they say no: the catalogue's group. */
export { VERIFICATION_MESSAGES } from '@shared/messages/verification'
