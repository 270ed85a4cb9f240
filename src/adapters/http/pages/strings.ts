import { PASSWORD } from '../../../domain/members/member'

/** Every text the pages show, in one place (English for now; another language is another object of this shape). */
export const STRINGS = {
  en: {
    resetTitle: 'Choose a new password',
    resetDone: 'Your password is changed and your other sessions are ended. You can now log in with the new password in the staff app.',
    inviteTitle: 'Accept your invitation',
    inviteDone: 'Your account is ready. You can now log in with your email and this password in the staff app.',
    passwordLabel: 'New password',
    passwordHint: `At least ${PASSWORD.minLength} characters. A few unrelated words are easy to remember and hard to guess.`,
    submit: 'Save the password',
    badToken: 'This link is unknown, already used or expired. Ask for a new one.',
    badPassword: `This password is not valid: it needs at least ${PASSWORD.minLength} characters.`,
    missingToken: 'This page needs the link from your email: open the link again.',
    forbidden: 'This form must be sent from this site. Open the link from your email again.',
  },
} as const

export type Strings = (typeof STRINGS)['en']
