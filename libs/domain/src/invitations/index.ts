export * from './confirmation-key.js';
export * from './invitation.js';
export * from './invitations.errors.js';
export * from './invite.policy.js';
export * from './invitee-emails.js';
