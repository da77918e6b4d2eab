/**
 * The users context's public surface: users, groups and permissions as other contexts need
 * them, user and status views, and the ports it owns for other contexts to implement.
 * Other contexts import this context only through this file.
 */
export * from './application/permissions.js';
export * from './application/user-status.service.js';
export * from './application/user-status.views.js';
export * from './application/user.ports.js';
export * from './application/user.views.js';
export * from './application/user-settings.ports.js';
export * from './application/user-settings.views.js';
export * from './application/realm-user-defaults.ports.js';
export { presentRealmUserDefaults } from './application/realm-user-defaults.views.js';
export * from './application/custom-profile-fields.ports.js';
export * from './application/custom-profile-fields.views.js';
export * from './application/alert-words.service.js';
export * from './application/muted-users.ports.js';
export * from './application/muted-users.service.js';
export { BotsService } from './application/bots.service.js';
export { presentBot } from './application/user.views.js';
export { BotChannels, type BotChannel } from './application/bot.ports.js';
export { BootstrapService, type NewOrganization } from './application/bootstrap.service.js';
export { UsersService } from './application/users.service.js';
export { AccountService } from './application/account.service.js';
export { NewAccounts, type NewAccount } from './application/new-accounts.js';
export { NewUsers, type NewHuman } from './application/new-users.js';
export { presentNavigationView } from './application/navigation-views.service.js';
