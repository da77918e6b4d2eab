import type { Provider } from '@nestjs/common';
import { DefaultChannelSubscriptions } from '../channels/application/default-channels.js';
import { NewUserChannels } from '../users/application/user.ports.js';

/**
 * Ports one context owns and another context implements (the owner may not import the
 * implementer: that would be an arrow against CONTEXT_DEPENDENCIES in eslint.config.js).
 */
export const CrossContextPorts: Provider[] = [{ provide: NewUserChannels, useExisting: DefaultChannelSubscriptions }];
